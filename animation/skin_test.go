package animation_test

import (
	"strconv"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/animation"
	"github.com/gloved/gloved/handmodel"
)

// skinTol is how closely the skin posed from the file matches the
// pipeline's: the joints' local transforms are single precision and
// compose down five levels from the wrist; the grasp's worst vertex is
// 3e-8 m off.
const skinTol = 5e-7

// TestSkinnedHandReloads: a skinned hand's file holds a real glTF skin.
// Read back by the skinned-mesh loader (its bind pose, joints and inverse
// bind matrices) and posed by its joints' animation, composed down the
// joint hierarchy at each frame's time, it is the skin the pipeline posed
// that frame, vertex for vertex; and its links are the pipeline's.
func TestSkinnedHandReloads(t *testing.T) {
	r := record(t, 80, webxrHand("right.glb"))
	doc, path := export(t, r.rec)
	if r.rec.Joints() != 25 || len(doc.Skins) != 1 {
		t.Fatalf("%d joints recorded, %d skins written: want the WebXR hand's 25 in one skin", r.rec.Joints(), len(doc.Skins))
	}
	clip, err := animation.ReadClip(doc, 0)
	if err != nil {
		t.Fatal(err)
	}
	skin, err := handmodel.LoadSkin(path)
	if err != nil {
		t.Fatalf("the skinned-mesh loader does not read the file: %v", err)
	}
	if len(skin.Verts) != len(r.frames[0].skin) {
		t.Fatalf("the file's skin has %d vertices, the hand's %d", len(skin.Verts), len(r.frames[0].skin))
	}
	joints := make([]int, len(skin.Joints))
	for j, name := range skin.Joints {
		joints[j] = node(t, doc, name)
	}
	world := make([]mgl64.Mat4, len(joints))
	var posed handmodel.SkinPose
	for k := 0; k < len(r.frames); k += 7 {
		for j, n := range joints {
			world[j] = clip.World(n, r.keyTime(k))
		}
		if err := skin.Pose(world, &posed); err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for v, want := range r.frames[k].skin {
			worst = max(worst, posed.Verts[v].Sub(want).Len())
		}
		if worst > skinTol {
			t.Fatalf("frame %d: the skin posed from the file is up to %.3g m from the pipeline's", k, worst)
		}
		for l := range handmodel.Link(r.hand.NumLinks()) {
			sameTransform(t, l.String()+" at frame "+strconv.Itoa(k), clip.Sample(node(t, doc, l.String()), r.keyTime(k)).Transform(), r.frames[k].poses[l])
		}
	}
}
