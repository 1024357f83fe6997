package animation_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/animation"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

// float32Tol is the glTF file's precision at hand scale: float32 keeps
// about 7 digits of a coordinate under a metre.
const float32Tol = 2e-7

// exportedGLB writes h posed at q to a GLB file and reads it back with the
// scene loader, whose glTF decoder is independent of the writer's library.
func exportedGLB(t *testing.T, h *handmodel.Hand, q handmodel.Angles) (*env.Mesh, []geom.Transform, *handmodel.SkinPose) {
	t.Helper()
	poses := make([]geom.Transform, h.NumLinks())
	h.Pose(&q, geom.Transform{R: mgl64.Rotate3DZ(0.4).Mul3(mgl64.Rotate3DX(-1.1)), T: geom.Vec3{X: 0.1, Y: 0.9, Z: -0.2}}, poses)
	var skin *handmodel.Skin
	var posed *handmodel.SkinPose
	if r := h.Rig(); r != nil {
		posed = new(handmodel.SkinPose)
		if err := r.Pose(&q, poses, posed); err != nil {
			t.Fatal(err)
		}
		skin = r.Skin
	}
	path := filepath.Join(t.TempDir(), "hand.glb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := animation.WritePose(f, h, poses, skin, posed); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	m, err := env.Load(path, env.LoadOptions{})
	if err != nil {
		t.Fatalf("the exported file does not load: %v", err)
	}
	return m, poses, posed
}

// objectTris returns object name's triangles as corner positions.
func objectTris(t *testing.T, m *env.Mesh, name string) [][3]geom.Vec3 {
	t.Helper()
	o := slices.Index(m.Objects, name)
	if o < 0 {
		t.Fatalf("no object %q in %v", name, m.Objects)
	}
	var out [][3]geom.Vec3
	for i, tri := range m.Tris {
		if int(m.Object[i]) == o {
			out = append(out, [3]geom.Vec3{m.Verts[tri[0]], m.Verts[tri[1]], m.Verts[tri[2]]})
		}
	}
	return out
}

// sameTris checks that got holds want's triangles, corner for corner, in
// order.
func sameTris(t *testing.T, what string, got, want [][3]geom.Vec3) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d triangles, want %d", what, len(got), len(want))
	}
	for i := range want {
		for k := range 3 {
			if d := got[i][k].Sub(want[i][k]).Len(); d > float32Tol {
				t.Fatalf("%s: triangle %d corner %d is %.3g m from where it is posed", what, i, k, d)
			}
		}
	}
}

// TestGLBHoldsEachLinkPosed: the exported file has a node per link, named
// by the link, and its triangles are the link's hull where the pose puts
// it, as a viewer loading the file places them.
func TestGLBHoldsEachLinkPosed(t *testing.T) {
	h := mustHand(t, handmodel.Params{Length: 0.19, Breadth: 0.085, Right: false, Forearm: true})
	q, _ := handmodel.NamedPose("fist")
	m, poses, _ := exportedGLB(t, h, q)
	if len(m.Objects) != h.NumLinks() {
		t.Fatalf("objects %v, want one per link", m.Objects)
	}
	for l := range handmodel.Link(h.NumLinks()) {
		g := h.Geometry(l)
		var want [][3]geom.Vec3
		for _, tri := range g.Tris {
			want = append(want, [3]geom.Vec3{poses[l].Apply(g.Verts[tri[0]]), poses[l].Apply(g.Verts[tri[1]]), poses[l].Apply(g.Verts[tri[2]])})
		}
		sameTris(t, l.String(), objectTris(t, m, l.String()), want)
	}
}

// TestGLBHoldsThePosedSkin: a skinned hand's file also holds its skin, posed
// as the links are, whole.
func TestGLBHoldsThePosedSkin(t *testing.T) {
	h := skinnedHand(t, true, "right.glb")
	q, _ := handmodel.NamedPose("spread")
	m, _, posed := exportedGLB(t, h, q)
	skin := h.Rig().Skin
	var want [][3]geom.Vec3
	for _, tri := range skin.Tris {
		want = append(want, [3]geom.Vec3{posed.Verts[tri[0]], posed.Verts[tri[1]], posed.Verts[tri[2]]})
	}
	sameTris(t, "skin", objectTris(t, m, "skin"), want)
	if len(m.Objects) != h.NumLinks()+1 {
		t.Errorf("objects %v, want the links and the skin", m.Objects)
	}
}

// TestGLBRefusesWhatIsNotPosed: poses of the wrong count, or a skin without
// its pose, are errors, not a broken file.
func TestGLBRefusesWhatIsNotPosed(t *testing.T) {
	h := mustHand(t, handmodel.DefaultParams)
	if err := animation.WritePose(nil, h, make([]geom.Transform, 3), nil, nil); err == nil {
		t.Error("3 poses for 16 links: no error")
	}
	sk := skinnedHand(t, true, "right.glb")
	poses := make([]geom.Transform, sk.NumLinks())
	for i := range poses {
		poses[i] = geom.Identity()
	}
	if err := animation.WritePose(nil, sk, poses, sk.Rig().Skin, nil); err == nil {
		t.Error("a skin without its pose: no error")
	}
}
