package handmodel

import (
	"fmt"
	"io"
	"math"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// LinkGeometry is a link's convex shape in its own frame.
type LinkGeometry struct {
	Verts []geom.Vec3
	Tris  [][3]int32 // outward winding
	Box   geom.OBB   // covariance fit of the hull (link frame)
}

// Geometry returns link l's shape.
func (h *Hand) Geometry(l Link) *LinkGeometry { return &h.geom[l] }

// rodRing is the number of points around a finger link's cross-section.
const rodRing = 10

// rodPoints samples a finger link: rounded at both ends, slightly flatter
// front to back than side to side, as phalanges are.
func rodPoints(length, r0, r1 float64) []geom.Vec3 {
	var pts []geom.Vec3
	ring := func(y, r float64) {
		for k := range rodRing {
			a := 2 * math.Pi * float64(k) / rodRing
			pts = append(pts, geom.Vec3{X: r * math.Cos(a), Y: y, Z: 0.85 * r * math.Sin(a)})
		}
	}
	ring(-0.3*r0, 0.75*r0)
	ring(0.15*r0, r0)
	ring(length-0.15*r1, r1)
	ring(length+0.35*r1, 0.7*r1)
	pts = append(pts, geom.Vec3{Y: length + 0.6*r1})
	return pts
}

func (h *Hand) buildGeometry() error {
	h.geom = make([]LinkGeometry, len(h.links))
	for i, d := range h.links {
		pts := d.hull
		if pts == nil {
			pts = rodPoints(d.length, d.r0, d.r1)
		}
		if h.Params.Right { // the table is the left hand's
			pts = mirrorPoints(pts)
		}
		g, err := hullGeometry(pts)
		if err != nil {
			return fmt.Errorf("handmodel: %v: %w", Link(i), err)
		}
		h.geom[i] = g
	}
	return nil
}

func mirrorPoints(pts []geom.Vec3) []geom.Vec3 {
	out := make([]geom.Vec3, len(pts))
	for i, p := range pts {
		out[i] = geom.Vec3{X: -p.X, Y: p.Y, Z: p.Z}
	}
	return out
}

// hullGeometry returns the convex hull of pts as a mesh with its OBB. The
// hull must be solid: a flat link has no inside to collide with.
func hullGeometry(pts []geom.Vec3) (LinkGeometry, error) {
	h, err := geom.ConvexHull(pts)
	if err != nil {
		return LinkGeometry{}, err
	}
	if !h.Solid() {
		return LinkGeometry{}, fmt.Errorf("the points are flat: %w", geom.ErrNoHull)
	}
	f := geom.Fitter{Mode: geom.FitHull}
	return LinkGeometry{Verts: h.Verts, Tris: h.Tris, Box: f.Fit(h.Verts, h.Tris)}, nil
}

// SetLinkMesh replaces link l's shape with the convex hull of verts (in the
// link's frame), as for a scanned or designed hand. For a left hand give
// the left hand's own mesh: it is not mirrored.
func (h *Hand) SetLinkMesh(l Link, verts []geom.Vec3) error {
	if l < 0 || int(l) >= len(h.geom) {
		return fmt.Errorf("handmodel: no link %d in this hand", l)
	}
	if err := h.setLinkMesh(l, verts); err != nil {
		return fmt.Errorf("handmodel: %w", err)
	}
	return nil
}

// setLinkMesh is SetLinkMesh of a link there is; its error names the link
// and says what a link's mesh must be.
func (h *Hand) setLinkMesh(l Link, verts []geom.Vec3) error {
	g, err := hullGeometry(verts)
	if err != nil {
		return fmt.Errorf("%v mesh: %w: give each link a solid shape, at least 4 points not all in one plane, in its link's frame", l, err)
	}
	h.geom[l] = g
	return nil
}

// LoadLinkMeshes reads an OBJ, STL or glTF file whose objects are named
// after links (palm, thumb1 .. little3, forearm), each in its link's frame,
// and uses their hulls as the links' shapes. Objects with other names are
// an error, so that a typo is not silently ignored.
func (h *Hand) LoadLinkMeshes(path string) error {
	m, err := env.Load(path, env.LoadOptions{})
	if err != nil {
		return err
	}
	byName := map[string]Link{}
	for l := range Link(len(h.links)) {
		byName[l.String()] = l
	}
	pts := make([][]geom.Vec3, len(m.Objects))
	for i, t := range m.Tris {
		for _, v := range t {
			pts[m.Object[i]] = append(pts[m.Object[i]], m.Verts[v])
		}
	}
	for o, name := range m.Objects {
		l, ok := byName[name]
		if !ok {
			return fmt.Errorf("handmodel: %s: object %q is not a link of this hand: name each object after its link (palm, thumb1..3, index1..3, middle1..3, ring1..3, little1..3, forearm)", path, name)
		}
		if err := h.setLinkMesh(l, pts[o]); err != nil {
			return fmt.Errorf("handmodel: %s: %w", path, err)
		}
	}
	return nil
}

// WriteOBJ writes the posed hand: one object per link, its hull's vertices
// moved by the link's world transform, and a comment with each link frame
// (origin and axes) for inspection.
func (h *Hand) WriteOBJ(w io.Writer, poses []geom.Transform) error {
	if _, err := fmt.Fprintf(w, "# gloved hand: %d links, length %.3f m, breadth %.3f m, %s\n", len(h.links), h.Params.Length, h.Params.Breadth, map[bool]string{true: "right", false: "left"}[h.Params.Right]); err != nil {
		return err
	}
	base := 1
	for i := range h.links {
		x := poses[i]
		fmt.Fprintf(w, "# frame %s origin %.6f %.6f %.6f x %.6f %.6f %.6f y %.6f %.6f %.6f z %.6f %.6f %.6f\n",
			Link(i), x.T.X, x.T.Y, x.T.Z, x.R[0], x.R[1], x.R[2], x.R[3], x.R[4], x.R[5], x.R[6], x.R[7], x.R[8])
		fmt.Fprintf(w, "o %s\n", Link(i))
		g := &h.geom[i]
		for _, v := range g.Verts {
			p := x.Apply(v)
			fmt.Fprintf(w, "v %.6f %.6f %.6f\n", p.X, p.Y, p.Z)
		}
		for _, t := range g.Tris {
			fmt.Fprintf(w, "f %d %d %d\n", base+int(t[0]), base+int(t[1]), base+int(t[2]))
		}
		base += len(g.Verts)
	}
	_, err := fmt.Fprintln(w)
	return err
}
