package contacttest

import (
	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/narrow"
	"github.com/gloved/gloved/traversal"
)

// BoxMethod is the test-only method's name: it is registered by this
// package's init, as every method is by its own package, and chosen only
// by name (contact.Options.Methods).
const BoxMethod = "testbox"

func init() {
	contact.Register(contact.Method{
		Name:    BoxMethod,
		Doc:     "tests only: the object as the box its tree's root has, a convex solid",
		Prepare: prepareBox,
	})
}

// Box is a scene object as its root box: a solid measured by GJK and EPA
// from its eight corners. Calls counts its Collide calls, for tests.
type Box struct {
	tree    *env.Tree
	links   []contact.Link
	band    float64
	corners [8]geom.Vec3
	poly    *narrow.Polytope
	Calls   int
}

func prepareBox(p contact.Prep) (contact.Object, error) {
	sub, _ := p.Scene.Subset(func(i int) bool { return int(p.Scene.Object[i]) == p.Object })
	tree, err := env.Build(sub, env.BuildOptions{})
	if err != nil {
		return nil, err
	}
	b := &Box{tree: tree, links: p.Links, band: p.Options.Proximity}
	root := tree.Bounds()
	root.Corners(&b.corners)
	if b.poly, err = narrow.NewPolytope(b.corners[:], nil); err != nil {
		return nil, err
	}
	return b, nil
}

// Tree returns the object's tree, whose root box is the solid.
func (b *Box) Tree() *env.Tree { return b.tree }

// Front reports false: the box needs no triangles.
func (b *Box) Front() bool { return false }

// Clear reports false: every candidate is measured.
func (b *Box) Clear(int, geom.Transform) bool { return false }

// Forget does nothing: the box keeps no warm starts.
func (b *Box) Forget(int) {}

// Collide measures the link against the box, cold.
func (b *Box) Collide(c *traversal.Candidate, x geom.Transform, out *contact.Results) {
	b.Calls++
	l := int(c.Link)
	link := narrow.Shape{P: b.links[l].Poly, X: x}
	box := narrow.Shape{P: b.poly, X: geom.Identity()}
	d := narrow.Distance(&link, &box, nil)
	if !d.Overlap {
		if d.Distance <= b.band {
			out.Near = append(out.Near, contact.Near{Link: l, Object: int(c.Object), Distance: d.Distance, Point: d.PointB, LinkPoint: d.PointA})
		}
		return
	}
	p := narrow.Penetration(&link, &box, &d, nil)
	out.Contacts = append(out.Contacts, contact.Contact{Link: l, Object: int(c.Object), Depth: p.Depth, Normal: p.Normal, Point: p.PointB, Exact: p.Exact})
}
