package chains

import "github.com/gloved/gloved/geom"

// Mesh is the surface the spheres are built in, at its bind pose.
type Mesh struct {
	Verts []geom.Vec3
	Tris  [][3]int32
	// Union says the mesh is overlapping closed convex pieces (the
	// procedural hand's link hulls): a ray leaves the body at its last
	// exit from a region's triangles. Otherwise it is one surface (a
	// skin), left at the first.
	Union bool
}

// Region is a part of the mesh that a disk of rays sweeps.
type Region struct {
	Name string
	Tris []int32 // its triangles: the only ones its rays meet
	// Axis is the polyline the disk's centre follows (bind pose), and
	// Links the link each of its segments lies in.
	Axis  []geom.Vec3
	Links []int32
	// Wide regions (the palm, the paper's torso) take two spheres per
	// level, one each side of Across.
	Wide   bool
	Across geom.Vec3
}

// Params tune the sphere approximation (the paper's section 6 names).
type Params struct {
	Rays    int     // N_r, rays in the disk
	Step    float64 // d, the disk's displacement per level (m)
	Overlap float64 // PD, the fraction of two consecutive spheres' radii by which they overlap
	Use     Method  // the fit the running spheres take
}

// DefaultParams are the paper's (80 rays, 30% overlap) with a step for a
// hand's millimetres.
var DefaultParams = Params{Rays: 80, Step: 0.001, Overlap: 0.3, Use: J1Adjusted}

// Method is a way of sizing a sphere to its region.
type Method int

// The fits of section 3.
const (
	J1         Method = iota // centre of the cross-section, radius to the surface
	J2                       // minimum enclosing ball of the region's vertices
	J1Adjusted               // j1 moved in the disk's plane and scaled to fit the region
	NumMethods
)

var methodNames = [NumMethods]string{"j1", "j2", "j1'"}

func (m Method) String() string {
	if m >= 0 && m < NumMethods {
		return methodNames[m]
	}
	return "method?"
}

// Sphere is a ball: centre and radius.
type Sphere struct {
	C geom.Vec3
	R float64
}

// Overlaps reports whether a and b, each grown by slack, share a point:
// the paper's squared-distance test, 11 operations.
func (a Sphere) Overlaps(b Sphere, slack float64) bool {
	r := a.R + b.R + 2*slack
	return a.C.Sub(b.C).LenSqr() <= r*r
}
