package contact_test

import (
	"context"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/contact/contacttest"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// mixedScene has an object of each kind: a convex box, a closed torus and
// an open quad.
func mixedScene() *env.Mesh {
	scene := env.Box("crate", geom.Vec3{}, geom.Vec3{X: 0.1, Y: 0.1, Z: 0.1})
	scene.Append(env.Torus("ring", geom.Vec3{X: 0.5}, 0.1, 0.03, 24, 12))
	scene.Append(quad("sheet", 0))
	scene.DetectConvex()
	return scene
}

// quad is an open 2 m square in the plane z = z, named name.
func quad(name string, z float64) *env.Mesh {
	return &env.Mesh{Objects: []string{name}, Verts: []geom.Vec3{{X: -1, Y: -1, Z: z}, {X: 1, Y: -1, Z: z}, {X: 1, Y: 1, Z: z}, {X: -1, Y: 1, Z: z}},
		Tris: [][3]int32{{0, 1, 2}, {0, 2, 3}}, Object: []int32{0, 0}}
}

// cube is a link: a 2 cm cube.
func cube() contacttest.Body {
	b := env.Box("link", geom.Vec3{}, geom.Vec3{X: 0.01, Y: 0.01, Z: 0.01})
	return contacttest.Body{Verts: b.Verts, Tris: b.Tris}
}

// TestEachObjectGetsTheMethodOfItsKind: a convex mesh is a convex solid,
// a closed non-convex one a solid mesh, an open one a surface.
func TestEachObjectGetsTheMethodOfItsKind(t *testing.T) {
	rig := contacttest.NewRig(t, []contacttest.Body{cube()}, mixedScene(), contact.Options{})
	want := []string{"convex", "solid", "surface"}
	for o, got := range rig.Scene.Method {
		if got != want[o] {
			t.Errorf("object %s: method %s, want %s", rig.Scene.Mesh.Objects[o], got, want[o])
		}
	}
}

// TestANamedMethodReplacesTheChoice: an object's method can be named,
// among them one registered by a package the program imports (here the
// test-only testbox of contacttest): it then answers that object's pairs.
func TestANamedMethodReplacesTheChoice(t *testing.T) {
	scene := mixedScene()
	o := contact.Options{Methods: map[string]string{"ring": "surface", "crate": contacttest.BoxMethod}}
	rig := contacttest.NewRig(t, []contacttest.Body{cube()}, scene, o)
	if got := strings.Join(rig.Scene.Method, " "); got != "testbox surface surface" {
		t.Fatalf("methods %s, want testbox surface surface", got)
	}
	// Inside the crate: the box method answers with a contact.
	res := rig.Frame([]geom.Transform{{R: mgl64.Ident3(), T: geom.Vec3{X: 0.02, Y: 0.03, Z: 0.04}}})
	box := rig.Scene.Objects[0].(*contacttest.Box)
	if box.Calls != 1 || len(res.Contacts) != 1 || res.Contacts[0].Object != 0 {
		t.Fatalf("calls %d, contacts %+v: want the box's one contact", box.Calls, res.Contacts)
	}
	// Wholly inside the ring's tube: a solid would be in contact, a
	// surface touches nothing.
	res = rig.Frame([]geom.Transform{{R: mgl64.Ident3(), T: geom.Vec3{X: 0.6}}})
	for _, c := range res.Contacts {
		if c.Object == 1 {
			t.Fatalf("the ring as a surface: contact %+v inside its tube", c)
		}
	}
}

// TestAMethodKeyNamesEveryObjectOfItsGivenName: objects a scene's files
// gave one name are renamed NAME.N when it loads (env.Mesh.UniqueNames);
// a methods key of that name still names each of them, as it did before
// they were renamed, and the key of a new name its one object.
func TestAMethodKeyNamesEveryObjectOfItsGivenName(t *testing.T) {
	scene := env.Torus("ring", geom.Vec3{}, 0.1, 0.03, 24, 12)
	scene.Append(env.Torus("ring", geom.Vec3{X: 0.5}, 0.1, 0.03, 24, 12))
	scene.Append(env.Torus("ring", geom.Vec3{X: 1}, 0.1, 0.03, 24, 12))
	scene.UniqueNames()
	scene.DetectConvex()
	for _, tc := range []struct {
		methods map[string]string
		want    string
	}{
		{map[string]string{"ring": "surface"}, "surface surface surface"},
		{map[string]string{"ring.2": "surface"}, "solid solid surface"},
		{nil, "solid solid solid"},
	} {
		if err := contact.Check(context.Background(), scene, tc.methods); err != nil {
			t.Fatalf("%v: %v", tc.methods, err)
		}
		rig := contacttest.NewRig(t, []contacttest.Body{cube()}, scene, contact.Options{Methods: tc.methods})
		if got := strings.Join(rig.Scene.Method, " "); got != tc.want {
			t.Errorf("%v: methods %s, want %s (objects %v)", tc.methods, got, tc.want, scene.Objects)
		}
	}
}

// TestMethodErrorsNameWhatIsWrong: an object the scene lacks, a method
// no package registered, a solid that is not closed, a convex solid of a
// flat object, and a method that does not take every object of the name
// are refused at load, by Check as by NewScene, naming the object and the
// method.
func TestMethodErrorsNameWhatIsWrong(t *testing.T) {
	links, err := contact.NewLinks(&cab.Body{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		methods map[string]string
		want    string
	}{
		{map[string]string{"table": "convex"}, `"table" = "convex": the scene has no such object: its objects are crate, ring, sheet and ring`},
		{map[string]string{"ring": "sdf"}, `"ring" = "sdf": no such contact method: want convex, solid, surface or testbox`},
		{map[string]string{"sheet": "solid"}, `"sheet" = "solid": it is not closed`},
		{map[string]string{"sheet": "convex"}, `"sheet" = "convex": its vertices have no convex hull`},
		{map[string]string{"ring": "solid"}, `"ring" = "solid": it is not closed`}, // the second ring is a quad
	} {
		scene := mixedScene()
		scene.Append(quad("ring", 2))
		scene.DetectConvex()
		_, err := contact.NewScene(scene, links, contact.Options{Methods: c.methods})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("methods %v: error %v, want it to say %q", c.methods, err, c.want)
		}
		if err := contact.Check(context.Background(), scene, c.methods); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("methods %v: Check says %v, want it to say %q", c.methods, err, c.want)
		}
	}
	if err := contact.Check(context.Background(), mixedScene(), map[string]string{"ring": "surface", "crate": "solid", "sheet": "surface"}); err != nil {
		t.Errorf("methods every object can take: %v", err)
	}
}

// TestRegisteringTwiceIsAMistake: a second method of one name panics at
// registration, as two drivers of one name would.
func TestRegisteringTwiceIsAMistake(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a second convex method registered")
		}
	}()
	m, _ := contact.Lookup("convex")
	contact.Register(m)
}

// TestChooseTakesTheLeastRank: the automatic choice for each kind.
func TestChooseTakesTheLeastRank(t *testing.T) {
	for _, c := range []struct {
		k    contact.Kind
		want string
	}{
		{contact.Kind{Convex: true}, "convex"},
		{contact.Kind{Convex: true, Closed: true}, "convex"},
		{contact.Kind{Closed: true}, "solid"},
		{contact.Kind{}, "surface"},
	} {
		if m, ok := contact.Choose(c.k); !ok || m.Name != c.want {
			t.Errorf("%+v: %s (%v), want %s", c.k, m.Name, ok, c.want)
		}
	}
}

// TestAMethodThatCannotForkIsAnsweredByOneWorker: an object whose method
// cannot fork (the test box) keeps its scene's frames on one goroutine,
// however many workers are asked for; and a scene of no links passes no
// frame over.
func TestAMethodThatCannotForkIsAnsweredByOneWorker(t *testing.T) {
	o := contact.Options{Workers: 4, SplitAbove: -1, Methods: map[string]string{"crate": contacttest.BoxMethod}}
	rig := contacttest.NewRig(t, []contacttest.Body{cube(), cube()}, mixedScene(), o)
	for i := range 5 {
		x := geom.Transform{R: mgl64.Ident3(), T: geom.Vec3{X: 0.02, Y: 0.03, Z: 0.04 + 0.001*float64(i)}}
		rig.Frame([]geom.Transform{x, x})
		if n := rig.Scene.Shares(); n != 1 {
			t.Fatalf("frame %d shared among %d workers", i, n)
		}
	}
	s, err := contact.NewScene(mixedScene(), nil, contact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.PassOver(nil) {
		t.Error("a scene of no links passed a frame over")
	}
}
