package chains

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// maxLinks bounds the links a set's spheres lie on: a link's excluded
// neighbours are a bit mask.
const maxLinks = 64

// Set is a body's spheres: as built (Fits), as they are now (Spheres,
// after Update), and the chains they are tested in.
type Set struct {
	Fits    []Fit
	Spheres []Sphere
	Chains  [][]int32 // sphere indices; see SetChains
	// chainPairs are the distinct pairs the chains test that count,
	// ordered by their links; groups are the runs of one link pair.
	chainPairs []Pair
	groups     []linkGroup
	linkPairs  []LinkPair
	// linkSpheres are each link's spheres.
	linkSpheres [][]int32
	use         Method
	tris        [][3]int32
	// near[l] has bit k set when spheres on links l and k never count.
	near [maxLinks]uint64
	// Following the pivots: the distinct pivot triangles (slot order),
	// each sphere's four pivots as slots, its centre's offset in the
	// pivots' frame and its radius over their mean distance.
	pivotTris []int32
	slots     [][4]int32
	offset    []geom.Vec3
	scale     []float64
	pos       []geom.Vec3 // the pivots' centroids, as last placed
	// rigid[i] is the link all of sphere i's pivots ride on for a
	// LinkPoser, or -1; nil until the first update by one.
	rigid []int32
}

// Poser places the mesh's triangles' centroids in the current frame: a
// skin posed by its joints, or rigid links by their transforms. Update
// asks it for the pivot triangles' only (PivotTris), so a poser may
// ready those in advance.
type Poser interface {
	Centroid(tri int32) geom.Vec3
}

// LinkPoser is a Poser whose triangles ride rigid links (a procedural
// hand's hulls): each triangle's link, and each link's motion from the
// bind pose. A sphere whose four pivots ride one link then moves by that
// link's motion: what the pivots' rule gives under their rigid motion
// (TestSpheresFollowTheirPivots), for one transform instead of four
// pivots.
type LinkPoser interface {
	Poser
	TriLink(tri int32) int32
	Motion(link int32) geom.Transform
}

// PivotTris are the triangles whose centroids Update asks a Poser for.
func (s *Set) PivotTris() []int32 { return s.pivotTris }

// exclude marks the link pairs whose spheres never count: a link with
// itself and with its parent.
func (s *Set) exclude(parent []int32) {
	for l := range parent {
		s.near[l] |= 1 << l
		if p := parent[l]; p >= 0 {
			s.near[l] |= 1 << p
			s.near[p] |= 1 << l
		}
	}
}

// Exclude makes spheres on links a and b never count, as adjacent ones.
// Call it before SetChains, which lists the pairs that count.
func (s *Set) Exclude(a, b int32) {
	s.near[a] |= 1 << b
	s.near[b] |= 1 << a
}

// Counts reports whether spheres a and b may count as a self-collision:
// they are not on one link or on a link and its parent.
func (s *Set) Counts(a, b int32) bool {
	return s.near[s.Fits[a].Link]&(1<<s.Fits[b].Link) == 0
}

// ready records how each sphere follows its pivots (section 5.1) and sets
// the spheres to the chosen fit.
func (s *Set) ready(m *Mesh) error {
	slot := map[int32]int32{}
	n := len(s.Fits)
	s.Spheres, s.slots = make([]Sphere, n), make([][4]int32, n)
	s.offset, s.scale = make([]geom.Vec3, n), make([]float64, n)
	for i, f := range s.Fits {
		for k, t := range f.Pivots {
			if _, ok := slot[t]; !ok {
				slot[t] = int32(len(s.pivotTris))
				s.pivotTris = append(s.pivotTris, t)
			}
			s.slots[i][k] = slot[t]
		}
	}
	for i, f := range s.Fits {
		for int(f.Link) >= len(s.linkSpheres) {
			s.linkSpheres = append(s.linkSpheres, nil)
		}
		s.linkSpheres[f.Link] = append(s.linkSpheres[f.Link], int32(i))
	}
	s.pos = make([]geom.Vec3, len(s.pivotTris))
	for j, t := range s.pivotTris {
		tri := m.Tris[t]
		s.pos[j] = m.Verts[tri[0]].Add(m.Verts[tri[1]]).Add(m.Verts[tri[2]]).Mul(1.0 / 3)
	}
	for i, f := range s.Fits {
		sp := f.Sphere[s.use]
		c, a, b, n, spread := s.pivotFrame(i)
		if !(spread > 0) {
			return fmt.Errorf("chains: sphere %d's pivots coincide", i)
		}
		if basis := geom.FromCols(a, b, n); basis != (mgl64.Mat3{}) {
			s.offset[i] = geom.FromMgl(basis.Inv().Mul3x1(sp.C.Sub(c).Mgl()))
		}
		s.scale[i] = sp.R / spread
		s.Spheres[i] = sp
	}
	return nil
}

// pivotFrame returns the mean c of sphere i's pivot centroids, a basis
// the pivots carry (the diagonals a = p0-p2 and b = p1-p3 and their cross
// product n; not orthonormal, so no square root, and under a rigid motion
// it turns exactly as the pivots do; all zero when the diagonals are
// parallel), and the root mean square of the pivots' distances from that
// mean (the paper's mean distance, with one square root instead of four;
// the same when the pivots are equidistant, as they are around a tube).
func (s *Set) pivotFrame(i int) (c, a, b, n geom.Vec3, spread float64) {
	sl := &s.slots[i]
	p0, p1, p2, p3 := s.pos[sl[0]], s.pos[sl[1]], s.pos[sl[2]], s.pos[sl[3]]
	c = p0.Add(p1).Add(p2).Add(p3).Mul(0.25)
	spread = math.Sqrt((p0.Sub(c).LenSqr() + p1.Sub(c).LenSqr() + p2.Sub(c).LenSqr() + p3.Sub(c).LenSqr()) / 4)
	a, b = p0.Sub(p2), p1.Sub(p3)
	n = a.Cross(b)
	if n.LenSqr() <= 1e-18*a.LenSqr()*b.LenSqr() {
		return c, geom.Vec3{}, geom.Vec3{}, geom.Vec3{}, spread
	}
	return c, a, b, n, spread
}

// Update moves every sphere with its pivot polygons (section 5.1): its
// centre is the mean of the pivots' centroids plus its offset in the
// basis they carry (zero offset: the paper's rule), its radius their
// spread about that mean, scaled as built. Under a rigid motion of the
// pivots the sphere moves rigidly with them. It allocates nothing.
func (s *Set) Update(at Poser) {
	for j, t := range s.pivotTris {
		s.pos[j] = at.Centroid(t)
	}
	for i := range s.Spheres {
		s.place(i)
	}
}

// UpdateLink moves the spheres on link l as Update does, placing only
// their pivots: for a caller that needs a few links' spheres in a frame.
// It allocates nothing once it has run with at.
func (s *Set) UpdateLink(at Poser, l int32) {
	if int(l) >= len(s.linkSpheres) {
		return
	}
	lp, rigid := at.(LinkPoser)
	if rigid && s.rigid == nil {
		s.rideOn(lp)
	}
	for _, i := range s.linkSpheres[l] {
		if rigid && s.rigid[i] >= 0 {
			x := lp.Motion(s.rigid[i])
			sp := s.Fits[i].Sphere[s.use]
			s.Spheres[i] = Sphere{C: x.Apply(sp.C), R: sp.R}
			continue
		}
		for _, slot := range s.slots[i] {
			s.pos[slot] = at.Centroid(s.pivotTris[slot])
		}
		s.place(int(i))
	}
}

// rideOn notes, for each sphere, the one link its pivots all ride on
// under p, if there is one.
func (s *Set) rideOn(p LinkPoser) {
	s.rigid = make([]int32, len(s.Spheres))
	for i := range s.rigid {
		l := p.TriLink(s.pivotTris[s.slots[i][0]])
		for _, slot := range s.slots[i][1:] {
			if p.TriLink(s.pivotTris[slot]) != l {
				l = -1
			}
		}
		s.rigid[i] = l
	}
}

// place sets sphere i from its pivots' placed centroids: the mean of
// the pivots plus the offset in their basis.
func (s *Set) place(i int) {
	c, a, b, n, spread := s.pivotFrame(i)
	o := s.offset[i]
	s.Spheres[i] = Sphere{C: c.Add(a.Mul(o.X).Add(b.Mul(o.Y)).Add(n.Mul(o.Z))), R: s.scale[i] * spread}
}
