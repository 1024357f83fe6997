package mesh_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/contact/contacttest"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/env/experiments"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/handmodel/handtest"
)

// packedAndWhole makes two rigs over scene with mk, each preparing its
// objects in the Shared given: one whose trees keep whole boxes, one whose
// trees pack them (env.PackFrom lowered while it is made; the tests that
// call it are not parallel, so no other build sees it).
func packedAndWhole(t *testing.T, scene *env.Mesh, mk func(*contact.Shared) *contacttest.Rig) (whole, packed *contacttest.Rig) {
	t.Helper()
	was := env.PackFrom
	defer func() { env.PackFrom = was }()
	for _, pack := range []bool{false, true} {
		env.PackFrom = math.MaxInt
		if pack {
			env.PackFrom = 1
		}
		sh := contact.NewShared(scene)
		rig := mk(sh)
		for o := range scene.Objects {
			surf, err := sh.Surface(o)
			if err != nil {
				t.Fatal(err)
			}
			if len(surf.Tree.Nodes) > 0 && surf.Tree.Packed() != pack {
				t.Fatalf("object %d: tree packed %v, want %v", o, surf.Tree.Packed(), pack)
			}
		}
		if pack {
			packed = rig
		} else {
			whole = rig
		}
	}
	return whole, packed
}

// sameAnswers runs both rigs through frames and fails on any frame whose
// answers differ in any digit.
func sameAnswers(t *testing.T, whole, packed *contacttest.Rig, frames [][]geom.Transform) {
	t.Helper()
	diffs, answers := 0, 0
	for f, x := range frames {
		rw := whole.Frame(x)
		answers += len(rw.Contacts) + len(rw.Near)
		a := resultsString(rw)
		if b := resultsString(packed.Frame(x)); a != b {
			diffs++
			if diffs <= 3 {
				t.Errorf("frame %d:\nwhole:  %s\npacked: %s", f, a, b)
			}
		}
	}
	if diffs > 0 {
		t.Errorf("%d of %d frames differ", diffs, len(frames))
	}
	if answers == 0 {
		t.Errorf("no frame touched or came near: the frames test little")
	}
}

// TestPackedBoxesGiveTheSameAnswers: the boxes of a tree of a million
// triangles are packed into 40 bytes (float32, the extents measured again
// about the rounded axes and centre), looser by parts in 10^8 but still
// holding their triangles, so every answer is the same to the last digit
// as with whole boxes: a link wandering in and out of a torus and a wall,
// in and out of a solid that crosses itself, sliding over a flat floor
// where many triangles tie, and the grasp closing on the duck.
func TestPackedBoxesGiveTheSameAnswers(t *testing.T) {
	one := func(scene *env.Mesh, band float64, link hull) (*contacttest.Rig, *contacttest.Rig) {
		return packedAndWhole(t, scene, func(sh *contact.Shared) *contacttest.Rig {
			return contacttest.NewRig(t, []contacttest.Body{{Verts: link.verts, Tris: link.tris}}, scene, contact.Options{Proximity: band, Shared: sh})
		})
	}
	each := func(poses []geom.Transform) [][]geom.Transform {
		frames := make([][]geom.Transform, len(poses))
		for i, x := range poses {
			frames[i] = []geom.Transform{x}
		}
		return frames
	}
	t.Run("torus and wall", func(t *testing.T) {
		for seed := range uint64(4) {
			r := rand.New(rand.NewPCG(seed, 31))
			link := randomHull(t, r, 20, 0.006)
			whole, packed := one(torusAndWall(), 0.01, link)
			sameAnswers(t, whole, packed, each(wander(r, geom.Vec3{X: 0.16}, 1000, 0.0015, 0.03)))
		}
	})
	t.Run("crossed boxes", func(t *testing.T) {
		scene := crossedBoxes(0.03, geom.Vec3{X: 0.03, Y: 0.015, Z: 0.0075})
		for seed := range uint64(3) {
			r := rand.New(rand.NewPCG(seed, 32))
			link := randomHull(t, r, 20, 0.004)
			whole, packed := one(scene, 0.01, link)
			sameAnswers(t, whole, packed, each(wander(r, geom.Vec3{X: -0.012}, 600, 0.002, 0.002)))
		}
	})
	t.Run("flat floor", func(t *testing.T) {
		scene, link, poses := flatFloor(t, 0.0035)
		whole, packed := one(scene, 0.01, link)
		sameAnswers(t, whole, packed, each(poses))
	})
	t.Run("grasp on the duck", func(t *testing.T) {
		hand, scene := handAndDuck(t)
		whole, packed := packedAndWhole(t, scene, func(sh *contact.Shared) *contacttest.Rig {
			return contacttest.NewHandRig(t, hand, scene, contact.Options{Proximity: 0.01, CountTris: true, Shared: sh})
		})
		sameAnswers(t, whole, packed, handtest.Grasp(t, hand, env.GraspWrist(), 300))
	})
}

// TestFramesOnPackedTreesAllocateNothing: once the grasp has closed on
// the duck with its tree packed (each goroutine's cache of decoded boxes
// made on its first frame), a frame allocates nothing.
func TestFramesOnPackedTreesAllocateNothing(t *testing.T) {
	hand, scene := handAndDuck(t)
	_, packed := packedAndWhole(t, scene, func(sh *contact.Shared) *contacttest.Rig {
		return contacttest.NewHandRig(t, hand, scene, contact.Options{Proximity: 0.01, CountTris: true, Shared: sh, Workers: 2, SplitAbove: -1})
	})
	frames := handtest.Grasp(t, hand, env.GraspWrist(), 120)
	for _, x := range frames {
		packed.Frame(x)
	}
	i := 0
	if n := testing.AllocsPerRun(len(frames), func() { packed.Frame(frames[i%len(frames)]); i++ }); n != 0 {
		t.Fatalf("%v allocations a frame", n)
	}
}

// handAndDuck is the default hand and the smallest duck of `gloved bench
// scenes`.
func handAndDuck(t *testing.T) (*handmodel.Hand, *env.Mesh) {
	t.Helper()
	hand, err := handmodel.New(handmodel.DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	c, err := experiments.SceneClassNamed("duck")
	if err != nil {
		t.Fatal(err)
	}
	scene, err := c.Make(c.Sizes[0])
	if err != nil {
		t.Fatal(err)
	}
	return hand, scene
}
