package handmodel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

func mustHand(t testing.TB, p Params) *Hand {
	t.Helper()
	h, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func near(a, b geom.Vec3) bool { return a.Sub(b).Len() < 1e-12 }

func pose(h *Hand, q Angles, wrist geom.Transform) []geom.Transform {
	out := make([]geom.Transform, h.NumLinks())
	h.Pose(&q, wrist, out)
	return out
}

// tableHand is the hand the link table describes, the left (the right is
// its mirror image): the layout the tests below spell out.
func tableHand(t *testing.T) *Hand {
	t.Helper()
	p := DefaultParams
	p.Right = false
	return mustHand(t, p)
}

// TestRightThumbIsOnTheLeft: in the hand frame (fingers +Y, palm -Z) a
// right hand, seen from its back with the fingers up, has its thumb on the
// left (-X) and its little finger on the right; a left hand the opposite.
func TestRightThumbIsOnTheLeft(t *testing.T) {
	for _, right := range []bool{true, false} {
		p := DefaultParams
		p.Right = right
		h := mustHand(t, p)
		x := pose(h, Angles{}, geom.Identity())
		thumb := x[ThumbDistal].Apply(h.Geometry(ThumbDistal).Box.Center)
		index, little := x[IndexProximal].T, x[LittleProximal].T
		if left := thumb.X < 0 && index.X < little.X; left != right {
			t.Errorf("right=%v: thumb tip at %v, index knuckle at %v, little knuckle at %v", right, thumb, index, little)
		}
		if thumb.Z >= 0 {
			t.Errorf("right=%v: the thumb tip is at %v, behind the palm's plane: want it in front of the palm (-Z)", right, thumb)
		}
	}
}

func TestFlatHand(t *testing.T) {
	h := tableHand(t)
	L, B := h.Params.Length, h.Params.Breadth
	x := pose(h, Angles{}, geom.Identity())
	if x[Palm].R != mgl64.Ident3() || x[Palm].T != (geom.Vec3{}) {
		t.Fatalf("palm %+v", x[Palm])
	}
	// With every angle zero the fingers lie straight along +Y.
	seg := segmentFractions[1]
	want := geom.Vec3{X: 0.30 * B, Y: (seg[0] + seg[1] + seg[2]) * L}
	if !near(x[IndexDistal].T, want) || !x[IndexDistal].R.ApproxEqual(mgl64.Ident3()) {
		t.Errorf("index3 at %v, want %v", x[IndexDistal].T, want)
	}
}

func TestSingleJointAndFist(t *testing.T) {
	h := tableHand(t)
	L, B := h.Params.Length, h.Params.Breadth
	seg := segmentFractions[1]
	mcp := geom.Vec3{X: 0.30 * B, Y: seg[0] * L}
	var q Angles
	q[IndexMCP] = math.Pi / 2
	x := pose(h, q, geom.Identity())
	// 90° at the MCP points the proximal phalanx into the palm (-Z).
	if want := mcp.Add(geom.Vec3{Z: -seg[1] * L}); !near(x[IndexMiddle].T, want) {
		t.Errorf("index2 at %v, want %v", x[IndexMiddle].T, want)
	}
	if !near(x[MiddleMiddle].T, geom.Vec3{X: 0.10 * B, Y: (segmentFractions[2][0] + segmentFractions[2][1]) * L}) {
		t.Error("bending the index moved the middle finger")
	}
	// A fist: MCP and PIP at 90°: the middle phalanx comes back toward the wrist.
	q[IndexPIP] = math.Pi / 2
	x = pose(h, q, geom.Identity())
	if want := mcp.Add(geom.Vec3{Y: -seg[2] * L, Z: -seg[1] * L}); !near(x[IndexDistal].T, want) {
		t.Errorf("fist: index3 at %v, want %v", x[IndexDistal].T, want)
	}
	// Positive abduction tilts the finger toward the thumb (+X).
	q = Angles{}
	q[IndexAbduction] = 0.2
	x = pose(h, q, geom.Identity())
	if y := geom.Col(&x[IndexProximal].R, 1); math.Abs(y.X-math.Sin(0.2)) > 1e-12 || y.Y <= 0 {
		t.Errorf("abducted index points along %v", y)
	}
	// Wrist flexion turns the whole hand palmward.
	q = Angles{}
	q[WristPitch] = math.Pi / 2
	x = pose(h, q, geom.Identity())
	if !near(x[MiddleProximal].T, geom.Vec3{X: 0.10 * B, Z: -segmentFractions[2][0] * L}) {
		t.Errorf("flexed wrist: middle1 at %v", x[MiddleProximal].T)
	}
}

func TestWristPoseMovesEverything(t *testing.T) {
	h := mustHand(t, DefaultParams)
	r := rand.New(rand.NewPCG(31, 31))
	var q Angles
	for j := range q {
		q[j] = r.Float64() - 0.5
	}
	w, _ := geom.FromQuat(mgl64.Quat{W: 0.3, V: mgl64.Vec3{0.1, -0.8, 0.2}}, geom.Vec3{X: 1, Y: 1.5, Z: -2})
	local := pose(h, q, geom.Identity())
	world := pose(h, q, w)
	for i := range local {
		if want := w.Mul(local[i]); !near(world[i].T, want.T) || !world[i].R.ApproxEqual(want.R) {
			t.Fatalf("link %v not moved rigidly by the wrist", Link(i))
		}
	}
}

func TestLeftHandMirrorsRight(t *testing.T) {
	pr := DefaultParams
	pl := pr
	pl.Right = false
	right, left := mustHand(t, pr), mustHand(t, pl)
	r := rand.New(rand.NewPCG(32, 32))
	for range 100 {
		var q Angles
		for j := range q {
			q[j] = r.Float64() - 0.5
		}
		xr, xl := pose(right, q, geom.Identity()), pose(left, q, geom.Identity())
		for i := range xr {
			m := mirror(xr[i])
			if !near(xl[i].T, m.T) || !xl[i].R.ApproxEqual(m.R) || math.Abs(xl[i].R.Det()-1) > 1e-12 {
				t.Fatalf("link %v of the left hand is not the mirror image", Link(i))
			}
			// The mirrored geometry, placed, is the mirror of the right's:
			// each solid holds the other's vertices (the hulls may list
			// other vertices: a corner in the middle of a flat side is kept
			// or left out by rounding).
			lg, rg := left.Geometry(Link(i)), right.Geometry(Link(i))
			var lw, rw []geom.Vec3
			for _, v := range lg.Verts {
				lw = append(lw, xl[i].Apply(v))
			}
			for _, v := range rg.Verts {
				p := xr[i].Apply(v)
				rw = append(rw, geom.Vec3{X: -p.X, Y: p.Y, Z: p.Z})
			}
			if k, d := farthestOutside(lw, lg.Tris, rw); d > 1e-12 {
				t.Fatalf("link %v: the mirror of the right's vertex %d is %g outside the left's solid", Link(i), k, d)
			}
			if k, d := farthestOutside(rw, rg.Tris, lw); d > 1e-12 {
				t.Fatalf("link %v: the left's vertex %d is %g outside the mirror of the right's solid", Link(i), k, d)
			}
		}
	}
}

// farthestOutside returns the point of pts farthest outside the convex
// solid with vertices verts and outward triangles tris (which may be wound
// either way: a mirror turns them), and that distance.
func farthestOutside(verts []geom.Vec3, tris [][3]int32, pts []geom.Vec3) (int, float64) {
	c := geom.Vec3{}
	for _, v := range verts {
		c = c.Add(v)
	}
	c = c.Mul(1 / float64(len(verts)))
	worst, at := math.Inf(-1), -1
	for k, p := range pts {
		d := math.Inf(-1)
		for _, tr := range tris {
			a, b, e := verts[tr[0]], verts[tr[1]], verts[tr[2]]
			n := b.Sub(a).Cross(e.Sub(a))
			if n.Len() == 0 {
				continue
			}
			if n = n.Normalize(); n.Dot(c.Sub(a)) > 0 {
				n = n.Mul(-1)
			}
			d = max(d, n.Dot(p.Sub(a)))
		}
		if d > worst {
			worst, at = d, k
		}
	}
	return at, worst
}

func TestLinkGeometry(t *testing.T) {
	for _, p := range []Params{DefaultParams, {Length: 0.17, Breadth: 0.075, Right: false, Forearm: true}} {
		h := mustHand(t, p)
		if want := map[bool]int{false: 16, true: 17}[p.Forearm]; h.NumLinks() != want {
			t.Fatalf("%d links, want %d", h.NumLinks(), want)
		}
		for l := range Link(h.NumLinks()) {
			g := h.Geometry(l)
			if len(g.Tris) < 8 || g.Box.Volume() <= 0 {
				t.Fatalf("%v: %d triangles, box %+v", l, len(g.Tris), g.Box)
			}
			for _, v := range g.Verts {
				if !g.Box.Contains(v, 1e-12) {
					t.Fatalf("%v: vertex %v outside its box", l, v)
				}
			}
			// Closed and outward: positive enclosed volume.
			vol := 0.0
			for _, tr := range g.Tris {
				vol += g.Verts[tr[0]].Dot(g.Verts[tr[1]].Cross(g.Verts[tr[2]])) / 6
			}
			if vol <= 0 || vol > g.Box.Volume() {
				t.Fatalf("%v: hull volume %v (box %v)", l, vol, g.Box.Volume())
			}
		}
	}
}

func TestWriteOBJRoundTrips(t *testing.T) {
	h := mustHand(t, DefaultParams)
	var b strings.Builder
	x := pose(h, Angles{}, geom.Identity())
	if err := h.WriteOBJ(&b, x); err != nil {
		t.Fatal(err)
	}
	m, err := env.ReadOBJ(strings.NewReader(b.String()), "hand")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Objects) != 16 || m.Objects[0] != "palm" || m.Objects[15] != "little3" {
		t.Fatalf("objects %v", m.Objects)
	}
	if !strings.Contains(b.String(), "# frame index1 origin") {
		t.Error("link frames are not in the export")
	}
}

func TestNewRejectsImpossibleSizes(t *testing.T) {
	for _, p := range []Params{{Length: 0, Breadth: 0.08}, {Length: 0.19, Breadth: math.NaN()}, {Length: 2, Breadth: 0.08}} {
		if _, err := New(p); err == nil {
			t.Errorf("%+v: want an error", p)
		}
	}
}

func TestPoseAllocatesNothing(t *testing.T) {
	h := mustHand(t, DefaultParams)
	out := make([]geom.Transform, h.NumLinks())
	var q Angles
	q[IndexMCP] = 0.4
	if n := testing.AllocsPerRun(100, func() { h.Pose(&q, geom.Identity(), out) }); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}

func BenchmarkPose16Links(b *testing.B) {
	h := mustHand(b, DefaultParams)
	out := make([]geom.Transform, h.NumLinks())
	var q Angles
	for j := range q {
		q[j] = 0.3
	}
	w, _ := geom.FromQuat(mgl64.Quat{W: 1}, geom.Vec3{Y: 1})
	b.ReportAllocs()
	for b.Loop() {
		h.Pose(&q, w, out)
	}
}

func TestLoadLinkMeshes(t *testing.T) {
	dir := t.TempDir()
	cube := func(name string, s float64) string {
		out := "o " + name + "\n"
		for i := range 8 {
			out += fmt.Sprintf("v %g %g %g\n", s*float64(i&1), s*float64(i>>1&1), s*float64(i>>2&1))
		}
		return out + "f -8 -7 -5 -6\nf -4 -2 -1 -3\nf -8 -4 -3 -7\nf -6 -5 -1 -2\nf -8 -6 -2 -4\nf -7 -3 -1 -5\n"
	}
	good := filepath.Join(dir, "links.obj")
	os.WriteFile(good, []byte(cube("palm", 0.05)+cube("index1", 0.02)), 0o644)
	h := mustHand(t, DefaultParams)
	if err := h.LoadLinkMeshes(good); err != nil {
		t.Fatal(err)
	}
	// A cube's hull covariance is isotropic, so its box may turn; it still
	// holds the cube and no more than the cube's circumscribed box.
	if g := h.Geometry(IndexProximal); len(g.Verts) != 8 || g.Box.Volume() < 8e-6*(1-1e-9) || g.Box.Volume() > 8e-6*math.Pow(3, 1.5) {
		t.Fatalf("index1 now has %d vertices, box volume %v", len(g.Verts), g.Box.Volume())
	}
	bad := filepath.Join(dir, "typo.obj")
	os.WriteFile(bad, []byte(cube("pinky3", 0.02)), 0o644)
	if err := h.LoadLinkMeshes(bad); err == nil || !strings.Contains(err.Error(), `"pinky3" is not a link`) {
		t.Fatalf("got %v", err)
	}
	flat := filepath.Join(dir, "flat.obj")
	os.WriteFile(flat, []byte("o thumb2\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n"), 0o644)
	if err := h.LoadLinkMeshes(flat); err == nil || !strings.Contains(err.Error(), "thumb2") {
		t.Fatalf("a flat link mesh must be refused naming the link, got %v", err)
	}
}

// TestNamedPoses: a fist brings every fingertip nearer the palm than the
// flat hand does; an unknown name is an error.
func TestNamedPoses(t *testing.T) {
	h := mustHand(t, DefaultParams)
	tipDistance := func(name string) []float64 {
		q, err := NamedPose(name)
		if err != nil {
			t.Fatal(err)
		}
		q.Clamp(&h.Limits)
		x := pose(h, q, geom.Identity())
		var d []float64
		for _, tip := range []Link{IndexDistal, MiddleDistal, RingDistal, LittleDistal} {
			d = append(d, x[tip].T.Sub(x[Palm].T).Len())
		}
		return d
	}
	flat, fist := tipDistance("flat"), tipDistance("fist")
	for i := range flat {
		if !(fist[i] < 0.8*flat[i]) {
			t.Errorf("finger %d: fist tip %.3f m from the palm, flat %.3f m", i, fist[i], flat[i])
		}
	}
	tipDistance("spread")
	if _, err := NamedPose("wave"); err == nil {
		t.Error("an unknown pose name must be an error")
	}
}
