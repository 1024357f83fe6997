package handmodel

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/devices/replay"
	"github.com/gloved/gloved/geom"
)

// skinnedHand is the hand of a side built on the WebXR hand from file
// (right.glb or left.glb).
func skinnedHand(t testing.TB, right bool, file string) *Hand {
	t.Helper()
	return mustHand(t, Params{Right: right, Mesh: filepath.Join("testdata", "webxr-generic-hand", file)})
}

// randomAngles are joint angles spread over the hand's limits.
func randomAngles(r *rand.Rand, h *Hand) Angles {
	var q Angles
	for j := range q {
		lim := h.Limits[j]
		q[j] = lim.Min + r.Float64()*(lim.Max-lim.Min)
	}
	return q
}

// TestSkinnedHandLinksAreTheSkinsJoints: at any pose and wrist, each link
// of a skinned hand is where the skin's joint for it is, so the collision
// hand and the rendered hand move together, to the float32 precision of
// the file's frames (10 nm, 1e-6 in rotation): the model makes its frames
// orthonormal, the rig uses the file's as they are.
func TestSkinnedHandLinksAreTheSkinsJoints(t *testing.T) {
	r := rand.New(rand.NewPCG(40, 40))
	wrist, _ := geom.FromQuat(mgl64.Quat{W: 0.7, V: mgl64.Vec3{0.2, -0.5, 0.1}}, geom.Vec3{X: 0.3, Y: 1.1, Z: -0.4})
	for _, c := range []struct {
		right bool
		file  string
	}{{true, "right.glb"}, {false, "left.glb"}, {true, "left.glb"}, {false, "right.glb"}} {
		h := skinnedHand(t, c.right, c.file)
		rig := h.Rig()
		links := make([]geom.Transform, h.NumLinks())
		for range 200 {
			q := randomAngles(r, h)
			h.Pose(&q, wrist, links)
			joints := rig.Joints(&q, links)
			for l := range Link(FingerLinks) {
				want := linkFrame(joints[slices.Index(rig.Skin.Joints, linkJoint[l])])
				if !rigid(links[l].R) {
					t.Fatalf("link %v's rotation %v is not a rotation", l, links[l].R)
				}
				if d := links[l].T.Sub(want.T).Len(); d > 1e-8 || maxAbs(links[l].R.Sub(want.R)) > 1e-6 {
					t.Fatalf("%s as right=%v: link %v is %g m and %g (rotation) off its joint", c.file, c.right, l, d, maxAbs(links[l].R.Sub(want.R)))
				}
			}
		}
	}
}

// TestSkinnedHandHullsHoldTheirVertices: at any pose, a skin vertex bound
// wholly to one joint is inside (or on, to 0.1 µm: the hull drops points
// on its faces) the posed hull of that joint's link, and one bound at least
// 90% to it is within 2 mm. Vertices blended more evenly, at the joints,
// follow neither link rigidly: the log says how far they stray.
func TestSkinnedHandHullsHoldTheirVertices(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 41))
	h := skinnedHand(t, true, "right.glb")
	rig := h.Rig()
	sk, err := webxrSkeleton(rig.Skin)
	if err != nil {
		t.Fatal(err)
	}
	owner := jointOwners(sk)
	links := make([]geom.Transform, h.NumLinks())
	var p SkinPose
	var all []float64
	for range 50 {
		q := randomAngles(r, h)
		h.Pose(&q, geom.Identity(), links)
		if err := rig.Pose(&q, links, &p); err != nil {
			t.Fatal(err)
		}
		for v, x := range p.Verts {
			k := dominant(rig.Skin.Weight[v])
			l, w := owner[rig.Skin.Influence[v][k]], rig.Skin.Weight[v][k]
			out := outside(h.Geometry(l), links[l].Inverse().Apply(x))
			if (w == 1 && out > 1e-7) || (w >= 0.9 && out > 0.002) {
				t.Fatalf("vertex %v, bound %.0f%% to link %v, is %g m outside its hull", v, 100*w, l, out)
			}
			all = append(all, out)
		}
	}
	slices.Sort(all)
	t.Logf("all vertices: 99%% within %.1f mm of their links' hulls, all within %.1f mm", 1e3*all[len(all)*99/100], 1e3*all[len(all)-1])
}

// maxAbs is the largest entry of m in magnitude.
func maxAbs(m mgl64.Mat3) float64 {
	x := 0.0
	for _, e := range m {
		x = max(x, math.Abs(e))
	}
	return x
}

// outside is how far p is outside g's hull (<= 0 inside).
func outside(g *LinkGeometry, p geom.Vec3) float64 {
	d := math.Inf(-1)
	for _, tr := range g.Tris {
		a, b, c := g.Verts[tr[0]], g.Verts[tr[1]], g.Verts[tr[2]]
		n := b.Sub(a).Cross(c.Sub(a)).Normalize()
		d = max(d, n.Dot(p.Sub(a)))
	}
	return d
}

// TestSkinnedHandTakesTheSkinsSize: the hand's length and breadth are
// measured from the skin, an adult's.
func TestSkinnedHandTakesTheSkinsSize(t *testing.T) {
	h := skinnedHand(t, true, "right.glb")
	if L, B := h.Params.Length, h.Params.Breadth; L < 0.15 || L > 0.22 || B < 0.06 || B > 0.11 {
		t.Errorf("length %v m, breadth %v m: want an adult hand's", L, B)
	}
	if h.NumLinks() != FingerLinks {
		t.Errorf("%d links, want %d", h.NumLinks(), FingerLinks)
	}
}

// TestSkinnedHandOfTheOtherFileIsItsMirror: a right hand built from the
// left file is the mirror image of the left hand built from it, link by
// link, and keeps the thumb on a right hand's side.
func TestSkinnedHandOfTheOtherFileIsItsMirror(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 42))
	left, right := skinnedHand(t, false, "left.glb"), skinnedHand(t, true, "left.glb")
	xl, xr := make([]geom.Transform, FingerLinks), make([]geom.Transform, FingerLinks)
	for range 100 {
		q := randomAngles(r, left)
		left.Pose(&q, geom.Identity(), xl)
		right.Pose(&q, geom.Identity(), xr)
		for l := range xl {
			m := mirror(xl[l])
			if xr[l].T.Sub(m.T).Len() > 1e-12 || maxAbs(xr[l].R.Sub(m.R)) > 1e-12 {
				t.Fatalf("link %v of the mirrored right hand is not the left's mirror image", Link(l))
			}
		}
	}
	var zero Angles
	right.Pose(&zero, geom.Identity(), xr)
	if tip := xr[ThumbDistal].T; tip.X >= 0 {
		t.Errorf("the right thumb is at %v, want -X", tip)
	}
}

// TestMirroredSkinPosesAsTheMirror: posing the mirrored skin by mirrored
// joints gives the mirror image of the posed skin.
func TestMirroredSkinPosesAsTheMirror(t *testing.T) {
	s := webxrHand(t, "right")
	m := s.Mirrored()
	world := make([]mgl64.Mat4, len(s.Rest))
	mworld := make([]mgl64.Mat4, len(s.Rest))
	for j := range world {
		turn := mgl64.HomogRotate3D(0.3*float64(j%5), mgl64.Vec3{1, 2, 3}.Normalize())
		world[j] = s.Rest[j].Mul4(turn)
		mworld[j] = mirrorX.Mul4(world[j]).Mul4(mirrorX)
	}
	var p, mp SkinPose
	if err := s.Pose(world, &p); err != nil {
		t.Fatal(err)
	}
	if err := m.Pose(mworld, &mp); err != nil {
		t.Fatal(err)
	}
	for v := range p.Verts {
		want := geom.Vec3{X: -p.Verts[v].X, Y: p.Verts[v].Y, Z: p.Verts[v].Z}
		if d := mp.Verts[v].Sub(want).Len(); d > 1e-12 {
			t.Fatalf("vertex %d: %v, want %v", v, mp.Verts[v], want)
		}
	}
	// The triangles still face out: the signed volume keeps its sign.
	if vs, vm := volume(s.Verts, s.Tris), volume(m.Verts, m.Tris); math.Abs(vs-vm) > 1e-12*math.Abs(vs) {
		t.Errorf("signed volume %v, the original's %v", vm, vs)
	}
}

// volume is a closed mesh's signed volume (positive when it faces out).
func volume(v []geom.Vec3, tris [][3]int32) float64 {
	sum := 0.0
	for _, t := range tris {
		sum += v[t[0]].Dot(v[t[1]].Cross(v[t[2]]))
	}
	return sum / 6
}

// TestJointTableRenamesARig: a rig with other joint names is used through
// a table naming each WebXR joint's counterpart; a table naming a joint
// the file lacks is an error that says which.
func TestJointTableRenamesARig(t *testing.T) {
	s := webxrHand(t, "right")
	names := map[string]string{}
	for j, n := range s.Joints {
		s.Joints[j] = "Bone_" + strings.ReplaceAll(n, "-", "_")
		names[n] = s.Joints[j]
	}
	if err := s.RenameJoints(names); err != nil {
		t.Fatal(err)
	}
	if _, err := newSkinned(s, Params{Right: true}); err != nil {
		t.Errorf("the renamed rig: %v", err)
	}
	s2 := webxrHand(t, "right")
	if err := s2.RenameJoints(map[string]string{"wrist": "Hand_R"}); err == nil || !strings.Contains(err.Error(), `"Hand_R"`) {
		t.Errorf("got %v, want an error naming Hand_R", err)
	}
	if err := s2.RenameJoints(map[string]string{"wrist": "wrist", "palm": "wrist"}); err == nil {
		t.Error("two names for one joint were taken")
	}
	if _, err := New(Params{Length: 0.19, Breadth: 0.085, JointNames: names}); err == nil {
		t.Error("a joint table without a mesh was taken")
	}
}

// TestSkinnedHandErrorsNameTheFile: a missing or malformed mesh is an
// error naming it.
func TestSkinnedHandErrorsNameTheFile(t *testing.T) {
	for _, path := range []string{"testdata/none.glb", "skin.go"} {
		if _, err := New(Params{Right: true, Mesh: path}); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: got %v, want an error naming it", path, err)
		}
	}
	if _, err := New(Params{Right: true, Forearm: true, Mesh: filepath.Join("testdata", "webxr-generic-hand", "right.glb")}); err == nil {
		t.Error("a skinned hand with a forearm was built")
	}
}

// TestSkinnedHandPosesFromAGloveRecording: the shipped CyberGlove recording
// of a grasp, calibrated with the calibration it stored, poses the skinned
// hand frame by frame: every skin vertex is finite, every vertex bound
// wholly to one joint stays inside (to 0.1 µm) its link's hull, and the
// grasp closes the skin: the fingertips come toward the palm as the
// recorded flexion says.
func TestSkinnedHandPosesFromAGloveRecording(t *testing.T) {
	const file = "../testdata/recordings/grasp.glove"
	r, err := replay.Open(file, false)
	if err != nil {
		t.Fatal(err)
	}
	hdr := r.Header()
	r.Close()
	samples, warn, err := replay.ReadSamples(file)
	if err != nil || warn != nil || len(samples) < 100 {
		t.Fatalf("%d samples (%v, %v)", len(samples), err, warn)
	}
	cal, err := ParseCalibration(file, []byte(hdr.Calibration))
	if err != nil {
		t.Fatal(err)
	}
	h := skinnedHand(t, hdr.Hand == "right", hdr.Hand+".glb")
	rig := h.Rig()
	links := make([]geom.Transform, h.NumLinks())
	var p SkinPose
	var tips []int
	for _, l := range []Link{IndexDistal, MiddleDistal, RingDistal, LittleDistal} {
		tips = append(tips, fingertip(rig, l))
	}
	reach := func() float64 { // mean fingertip distance from the palm's origin
		d := 0.0
		for _, v := range tips {
			d += p.Verts[v].Sub(links[Palm].T).Len()
		}
		return d / float64(len(tips))
	}
	open, closed := math.Inf(-1), math.Inf(1)
	for i := range samples {
		var q Angles
		if err := cal.Angles(&samples[i], &h.Limits, &q); err != nil {
			t.Fatalf("sample %d: %v", i, err)
		}
		h.Pose(&q, geom.Identity(), links)
		if err := rig.Pose(&q, links, &p); err != nil {
			t.Fatal(err)
		}
		for v, x := range p.Verts {
			if !x.Finite() {
				t.Fatalf("sample %d: vertex %d is %v", i, v, x)
			}
			k := dominant(rig.Skin.Weight[v])
			if rig.Skin.Weight[v][k] == 1 {
				l := rig.VertexLink(int32(v))
				if out := outside(h.Geometry(l), links[l].Inverse().Apply(x)); out > 1e-7 {
					t.Fatalf("sample %d: vertex %d, bound to link %v, is %g m outside it", i, v, l, out)
				}
			}
		}
		d := reach()
		open, closed = max(open, d), min(closed, d)
	}
	t.Logf("%d samples: mean fingertip reach from the wrist %.1f mm open, %.1f mm closed", len(samples), 1e3*open, 1e3*closed)
	if open-closed < 0.03 {
		t.Errorf("the grasp moved the fingertips %.1f mm: the skin does not follow the glove", 1e3*(open-closed))
	}
}

// fingertip is the skin vertex bound to distal link l farthest from the
// skin's origin, the wrist, in the bind pose: its fingertip.
func fingertip(rig *SkinRig, l Link) int {
	best, bestD := -1, math.Inf(-1)
	for v := range rig.Skin.Verts {
		if rig.VertexLink(int32(v)) == l {
			if d := rig.Skin.Verts[v].Len(); d > bestD {
				best, bestD = v, d
			}
		}
	}
	return best
}
