package cab

import (
	"fmt"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

// Link is one rigid body of an articulated body, in its own frame: the
// frame's origin is the joint that attaches it to its parent.
type Link struct {
	Name   string
	Parent int // -1 for a root
	Verts  []geom.Vec3
	Tris   [][3]int32
	Box    geom.OBB // rest OBB in the link frame (the leaf box)
	Convex bool     // the mesh is its own convex hull
	// corners are Box's 8 corners (AABB*); moments are the surface
	// integrals of the mesh (the OBB strategy).
	corners [8]geom.Vec3
	moments geom.SurfaceMoments
	mc      geom.Vec3 // moments' area-weighted centroid sum (link frame)
	mq      geom.Sym3 // moments' second-moment sum (link frame)
}

// Body is an articulated body: links in an order where parents come first.
type Body struct {
	Name  string
	Links []Link
}

// Adjacent reports whether links x and y share a joint, one being the
// other's parent (self tests skip such pairs, which touch by construction).
func (b *Body) Adjacent(x, y int32) bool {
	return b.Links[x].Parent == int(y) || b.Links[y].Parent == int(x)
}

// NewLink makes a link from a mesh, fitting its rest box by the hull
// covariance.
func NewLink(name string, parent int, verts []geom.Vec3, tris [][3]int32, convex bool) (Link, error) {
	if len(verts) < 4 || len(tris) < 4 {
		return Link{}, fmt.Errorf("cab: link %s: a link needs a solid mesh, got %d vertices and %d triangles", name, len(verts), len(tris))
	}
	f := geom.Fitter{Mode: geom.FitHull}
	l := Link{Name: name, Parent: parent, Verts: verts, Tris: tris, Convex: convex, Box: f.Fit(verts, tris)}
	l.Box.Corners(&l.corners)
	for _, t := range tris {
		l.moments.Add(verts[t[0]], verts[t[1]], verts[t[2]])
	}
	l.mc, l.mq = l.moments.Sums()
	return l, nil
}

// HandBody is the articulated hand as a body: its 16 (or 17) links with
// their convex hull meshes.
func HandBody(h *handmodel.Hand) (*Body, error) {
	b := &Body{Name: "hand"}
	for i := range h.NumLinks() {
		l := handmodel.Link(i)
		g := h.Geometry(l)
		link, err := NewLink(l.String(), int(h.Parent(l)), g.Verts, g.Tris, true)
		if err != nil {
			return nil, err
		}
		b.Links = append(b.Links, link)
	}
	return b, nil
}
