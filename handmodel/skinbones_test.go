package handmodel

import (
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// TestLinkBonesSkinAsTheJointsDo: at random poses of either hand (the
// skin mirrored or not), every joint's move equals its link's world
// transform times the joint's LinkBone, and so a vertex skinned with the
// links alone lands where the rig's own Pose puts it.
func TestLinkBonesSkinAsTheJointsDo(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 42))
	wrist, _ := geom.FromQuat(mgl64.Quat{W: 0.3, V: mgl64.Vec3{-0.6, 0.2, 0.5}}.Normalize(), geom.Vec3{X: -0.2, Y: 0.9, Z: 0.3})
	for _, c := range []struct {
		right bool
		file  string
	}{{true, "right.glb"}, {false, "right.glb"}, {false, "left.glb"}} {
		h := skinnedHand(t, c.right, c.file)
		rig := h.Rig()
		bones := rig.LinkBones()
		if len(bones) != len(rig.Skin.Joints) {
			t.Fatalf("%d link bones for %d joints", len(bones), len(rig.Skin.Joints))
		}
		links := make([]geom.Transform, h.NumLinks())
		var posed SkinPose
		for range 50 {
			q := randomAngles(r, h)
			h.Pose(&q, wrist, links)
			joints := rig.Joints(&q, links)
			moves := make([]mgl64.Mat4, len(bones))
			for j, b := range bones {
				moves[j] = mat4(links[b.Link]).Mul4(b.Bind)
				want := joints[j].Mul4(rig.Skin.InverseBind[j])
				for k := range 16 {
					if d := moves[j][k] - want[k]; d > 1e-6 || d < -1e-6 {
						t.Fatalf("%s right=%v: joint %s's move is %v through link %v, want %v", c.file, c.right, rig.Skin.Joints[j], moves[j], b.Link, want)
					}
				}
			}
			if err := rig.Pose(&q, links, &posed); err != nil {
				t.Fatal(err)
			}
			for v := range rig.Skin.Verts {
				var got geom.Vec3
				for k, j := range rig.Skin.Influence[v] {
					got = got.Add(geom.FromMgl(mgl64.TransformCoordinate(rig.Skin.Verts[v].Mgl(), moves[j])).Mul(rig.Skin.Weight[v][k]))
				}
				if d := got.Sub(posed.Verts[v]).Len(); d > 1e-7 {
					t.Fatalf("%s right=%v: vertex %d skinned by links is %g m from the rig's", c.file, c.right, v, d)
				}
			}
		}
	}
}
