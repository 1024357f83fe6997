package experiments

import (
	"context"
	"math"

	"github.com/gloved/gloved/bch"
	"github.com/gloved/gloved/geom"
)

// Volume is the paper's represented-volume experiment (section 5.2,
// figure 7, table 1), normalised by the mesh's volume.
//
// The mesh's volume is that of the union of its posed solids, on the
// raster the cylinders are measured on: the humanoid's capsules and the
// procedural hand's link hulls are closed solids that overlap at the
// joints, and the skin is one closed surface (once its texture seams
// are welded; the raster needs no welding). The divergence theorem over
// every triangle (Divergence) counts the overlaps twice; for the skin it
// is the skin's volume, and the raster agrees with it to the raster's
// resolution.
type Volume struct {
	Poses int     `json:"poses"`
	Cell  float64 `json:"cell_m"` // the raster's cell: the body's height / cells
	// Radius is the single cylinder's (m), Height the body's extent
	// along the axis (m).
	Radius Stat `json:"radius_m"`
	Height Stat `json:"height_m"`
	// Mesh is the union of the solids (m³); Divergence the divergence
	// theorem's sum over every triangle.
	Mesh       Stat `json:"mesh_m3"`
	Divergence Stat `json:"divergence_m3"`
	// Normalised volumes: the single cylinder; the BCH as the paper
	// measures it (the union of the leaf disks of the all projected
	// triangles tree, times the height); and the union of the same
	// leaves' cylinders as built here, each with its own extent along
	// the axis.
	Cylinder  Stat `json:"cylinder"`
	BCH       Stat `json:"bch"`
	BCHFinite Stat `json:"bch_finite"`
	// OddColumns counts raster columns whose crossings did not pair up:
	// 0 when every mesh is closed.
	OddColumns int `json:"odd_columns"`
}

// Volumes measures every pose of b on a raster of cells cells per body
// height.
func Volumes(ctx context.Context, b *Body, tr *Trees, cells int) (Volume, error) {
	res := Volume{Poses: len(b.Poses)}
	var radius, height, mesh, div, cyl, paper, finite []float64
	var r Raster
	for i, tris := range b.Poses {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		pv := MeasurePose(tr.Frame, tris, tr.Triangles[i], tr.Single[i], cells, &r)
		res.Cell = pv.Cell
		res.OddColumns += pv.Odd
		radius, height = append(radius, pv.Radius), append(height, pv.Height)
		mesh, div = append(mesh, pv.Mesh), append(div, pv.Divergence)
		cyl = append(cyl, pv.Cylinder/pv.Mesh)
		paper = append(paper, pv.BCH/pv.Mesh)
		finite = append(finite, pv.BCHFinite/pv.Mesh)
	}
	res.Radius, res.Height = Summarise(radius), Summarise(height)
	res.Mesh, res.Divergence = Summarise(mesh), Summarise(div)
	res.Cylinder, res.BCH, res.BCHFinite = Summarise(cyl), Summarise(paper), Summarise(finite)
	return res, nil
}

// PoseVolume is one pose's volumes (m³) and sizes (m).
type PoseVolume struct {
	Cell, Radius, Height                       float64
	Mesh, Divergence, Cylinder, BCH, BCHFinite float64
	Odd                                        int
}

// MeasurePose measures the mesh tris, its all projected triangles tree
// tri and its single cylinder single (all in frame f) on r, with cells
// cells across the mesh's height.
func MeasurePose(f Frame, tris []geom.Triangle, tri, single *bch.Tree, cells int, r *Raster) PoseVolume {
	root := single.Nodes[0]
	pv := PoseVolume{Radius: root.Circle.Radius, Height: root.Hi - root.Lo}
	pv.Cylinder = math.Pi * pv.Radius * pv.Radius * pv.Height
	pv.Cell = pv.Height / float64(cells)
	// The grid spans the root disk and every leaf's (a leaf's disk may
	// reach out of its root's).
	c := root.Circle
	lu, hu, lv, hv := c.X-c.Radius, c.X+c.Radius, c.Y-c.Radius, c.Y+c.Radius
	for i := range tri.Nodes {
		if n := &tri.Nodes[i]; n.Leaf() {
			lu, hu = math.Min(lu, n.Circle.X-n.Circle.Radius), math.Max(hu, n.Circle.X+n.Circle.Radius)
			lv, hv = math.Min(lv, n.Circle.Y-n.Circle.Radius), math.Max(hv, n.Circle.Y+n.Circle.Radius)
		}
	}
	r.Reset(lu, hu, lv, hv, pv.Cell)
	for _, t := range tris {
		r.AddSurface(f.project(t))
		pv.Divergence += t[0].Dot(t[1].Cross(t[2])) / 6
	}
	pv.Mesh, _, pv.Odd = r.Measure()
	r.Reset(lu, hu, lv, hv, pv.Cell)
	for i := range tri.Nodes {
		if n := &tri.Nodes[i]; n.Leaf() {
			r.AddCylinder(n)
		}
	}
	var area float64
	pv.BCHFinite, area, _ = r.Measure()
	pv.BCH = area * pv.Height
	return pv
}
