package contacttest

import (
	"fmt"
	"testing"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/contact"
	_ "github.com/gloved/gloved/contact/all" // the shipped methods
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/narrow"
)

// Rig is a body against a scene: the collision part of a frame as the
// pipeline runs it (the body's CAB refit, the traversal, each candidate
// answered by its object's method), for tests of methods without a glove.
type Rig struct {
	Scene *contact.Scene
	Hier  *cab.Hierarchy
	refit cab.Refitter
}

// Body is a rig's link given as a mesh in its own frame (its convex hull
// is the polytope the methods query).
type Body struct {
	Verts []geom.Vec3
	Tris  [][3]int32
}

// NewRig makes a rig of links, chained each to the one before, against
// scene (its convexity detected here if it was not).
func NewRig(t testing.TB, links []Body, scene *env.Mesh, o contact.Options) *Rig {
	t.Helper()
	body := &cab.Body{Name: "rig"}
	var polys []*narrow.Polytope
	for i, l := range links {
		link, err := cab.NewLink(fmt.Sprint("link", i), i-1, l.Verts, l.Tris, true)
		if err != nil {
			t.Fatal(err)
		}
		body.Links = append(body.Links, link)
		p, err := narrow.NewPolytope(l.Verts, l.Tris)
		if err != nil {
			t.Fatal(err)
		}
		polys = append(polys, p)
	}
	return newRig(t, body, polys, scene, o)
}

// NewHandRig makes a rig of hand's links against scene.
func NewHandRig(t testing.TB, hand *handmodel.Hand, scene *env.Mesh, o contact.Options) *Rig {
	t.Helper()
	body, err := cab.HandBody(hand)
	if err != nil {
		t.Fatal(err)
	}
	var polys []*narrow.Polytope
	for i := range hand.NumLinks() {
		g := hand.Geometry(handmodel.Link(i))
		p, err := narrow.NewPolytope(g.Verts, g.Tris)
		if err != nil {
			t.Fatal(err)
		}
		polys = append(polys, p)
	}
	return newRig(t, body, polys, scene, o)
}

func newRig(t testing.TB, body *cab.Body, polys []*narrow.Polytope, scene *env.Mesh, o contact.Options) *Rig {
	t.Helper()
	if scene.Convex == nil {
		scene.DetectConvex()
	}
	h, err := cab.Build(body)
	if err != nil {
		t.Fatal(err)
	}
	refit, err := cab.NewRefitter(cab.CAB, h)
	if err != nil {
		t.Fatal(err)
	}
	links, err := contact.NewLinks(body, polys)
	if err != nil {
		t.Fatal(err)
	}
	s, err := contact.NewScene(scene, links, o)
	if err != nil {
		t.Fatal(err)
	}
	return &Rig{Scene: s, Hier: h, refit: refit}
}

// Frame runs the collision part of a frame with the links at poses; the
// answers are in r.Scene's Results.
func (r *Rig) Frame(poses []geom.Transform) *contact.Results {
	r.refit.Refit(poses)
	r.Scene.Traverse(r.Hier, poses)
	r.Scene.Solve(poses)
	return &r.Scene.Results
}
