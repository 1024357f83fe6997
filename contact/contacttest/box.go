package contacttest

import (
	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/contact/convex"
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

// Box is a scene object as its root box: a convex solid (package
// convex's) of the box's eight corners. Calls counts its Collide calls,
// for tests. It is not a contact.Forker (its count is a plain int), so a
// scene with one answers each frame on one goroutine: a method that
// cannot fork.
type Box struct {
	obj   *convex.Object
	Calls int
}

var _ contact.Object = (*Box)(nil)

// Tree, Front, Clear and Forget are the convex solid's.
func (b *Box) Tree() *env.Tree                    { return b.obj.Tree() }
func (b *Box) Front() bool                        { return b.obj.Front() }
func (b *Box) Clear(l int, x geom.Transform) bool { return b.obj.Clear(l, x) }
func (b *Box) Forget(l int)                       { b.obj.Forget(l) }

func prepareBox(p contact.Prep) (contact.Object, error) {
	sub, _ := p.Scene.ObjectMesh(p.Object)
	tree, err := env.Build(sub, env.BuildOptions{})
	if err != nil {
		return nil, err
	}
	var corners [8]geom.Vec3
	root := tree.Bounds()
	root.Corners(&corners)
	poly, err := narrow.NewPolytope(corners[:], nil)
	if err != nil {
		return nil, err
	}
	return &Box{obj: convex.New(poly, tree, p.Links, p.Options)}, nil
}

// Collide counts the call and measures the link against the box.
func (b *Box) Collide(c *traversal.Candidate, x geom.Transform, out *contact.Results) {
	b.Calls++
	b.obj.Collide(c, x, out)
}
