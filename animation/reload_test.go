package animation_test

import (
	"math"
	"strconv"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"

	"github.com/gloved/gloved/animation"
	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

// poseTol is how closely a link transform read back from the file matches
// the pipeline's: single precision keeps a translation of about a metre
// to 6e-8 m and a unit quaternion's components to 6e-8, so 1e-6 in metres
// and in each rotation matrix entry leaves an order of magnitude to spare
// and still fails on anything but rounding.
const poseTol = 1e-6

// depthTol is how closely a marker's length gives the contact's depth:
// its scale, depth/MarkerLength, is single precision, 6e-8 relative, and
// contacts are shallower than 10 cm.
const depthTol = 1e-8

// sessionFrames is how long the reload tests run the grasp: the fingers
// meet the ball from frame 60, and up to six links touch it by frame 120.
const sessionFrames = 120

// sameTransform fails unless got is want to poseTol.
func sameTransform(t *testing.T, what string, got, want geom.Transform) {
	t.Helper()
	dr := 0.0
	for i := range got.R {
		dr = max(dr, math.Abs(got.R[i]-want.R[i]))
	}
	if dt := got.T.Sub(want.T).Len(); dt > poseTol || dr > poseTol {
		t.Fatalf("%s: %.3g m and %.3g in rotation from the pipeline's\ngot  %v\nwant %v", what, dt, dr, got, want)
	}
}

// between is the transform LINEAR interpolation gives u of the way from a
// to b, worked out here from the pipeline's double precision poses with
// mathgl's slerp, the quaternions first put in one hemisphere as Appendix
// C's short arc does.
func between(a, b geom.Transform, u float64) geom.Transform {
	qa, qb := mgl64.Mat4ToQuat(a.R.Mat4()).Normalize(), mgl64.Mat4ToQuat(b.R.Mat4()).Normalize()
	if qa.Dot(qb) < 0 {
		qb = qb.Scale(-1)
	}
	q := mgl64.QuatSlerp(qa, qb, u).Normalize()
	return geom.Transform{R: q.Mat4().Mat3(), T: a.T.Mul(1 - u).Add(b.T.Mul(u))}
}

// TestReloadGivesTheLinkTransforms: read back, each link's node has, at
// every frame's time, the link's transform in that frame, and midway
// between two frames the interpolation of theirs.
func TestReloadGivesTheLinkTransforms(t *testing.T) {
	r := record(t, sessionFrames, "")
	doc, _ := export(t, r.rec)
	clip, err := animation.ReadClip(doc, 0)
	if err != nil {
		t.Fatal(err)
	}
	for l := range handmodel.Link(r.hand.NumLinks()) {
		n := node(t, doc, l.String())
		for k := range r.frames {
			tk := r.keyTime(k)
			sameTransform(t, l.String()+" at frame "+strconv.Itoa(k), clip.Sample(n, tk).Transform(), r.frames[k].poses[l])
			if k+1 == len(r.frames) {
				continue
			}
			mid := (tk + r.keyTime(k+1)) / 2
			u := (mid - tk) / (r.keyTime(k+1) - tk)
			want := between(r.frames[k].poses[l], r.frames[k+1].poses[l], u)
			sameTransform(t, l.String()+" midway after frame "+strconv.Itoa(k), clip.Sample(n, mid).Transform(), want)
		}
	}
}

// TestReloadKeysAtTheSampleTimes: a moving link's channels are keyed at
// each frame's sample time, in seconds from the first frame, strictly
// increasing.
func TestReloadKeysAtTheSampleTimes(t *testing.T) {
	r := record(t, 40, "")
	doc, _ := export(t, r.rec)
	clip, err := animation.ReadClip(doc, 0)
	if err != nil {
		t.Fatal(err)
	}
	times := clip.Times(node(t, doc, handmodel.IndexDistal.String()), gltf.TRSRotation)
	if len(times) != len(r.frames) {
		t.Fatalf("%d keys for %d frames", len(times), len(r.frames))
	}
	for k, got := range times {
		if want := r.keyTime(k); got != want {
			t.Errorf("key %d at %v s, want %v s", k, got, want)
		}
	}
}

// marker is a contact as a marker shows it.
type marker struct {
	point, normal mgl64.Vec3
	depth         float64
}

// markersAt returns the markers in use at t: those not scaled to 0.
func markersAt(t *testing.T, doc *gltf.Document, clip *animation.Clip, pool int, at float64) []marker {
	var out []marker
	for i := range pool {
		x := clip.Sample(node(t, doc, animation.MarkerName(i)), at)
		if x.Scale == (mgl64.Vec3{}) {
			continue
		}
		if x.Scale[0] != 1 || x.Scale[2] != 1 {
			t.Fatalf("marker %d at %v s: scale %v, want 1 across", i, at, x.Scale)
		}
		out = append(out, marker{x.Translation, x.Transform().Rotate(geom.Vec3{Y: 1}).Mgl(), x.Scale[1] * animation.MarkerLength})
	}
	return out
}

// sameMarkers fails unless the markers are the contacts, in any order.
func sameMarkers(t *testing.T, what string, got []marker, want []contact.Contact) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d markers in use, %d contacts", what, len(got), len(want))
	}
	used := make([]bool, len(got))
	for _, c := range want {
		found := false
		for i, m := range got {
			if !used[i] && m.point.Sub(c.Point.Mgl()).Len() <= poseTol && m.normal.Sub(c.Normal.Mgl()).Len() <= poseTol && math.Abs(m.depth-c.Depth) <= depthTol {
				used[i], found = true, true
				break
			}
		}
		if !found {
			t.Fatalf("%s: no marker shows the contact of link %v at %v, normal %v, depth %.6g m; markers %+v", what, handmodel.Link(c.Link), c.Point, c.Normal, c.Depth, got)
		}
	}
}

// TestReloadMarksEachFramesContacts: the markers in use at a frame's time,
// and until the next (STEP), are that frame's contacts: a marker at each
// contact point, its +Y turned to the contact normal, stretched by the
// depth; the pool is as large as the most contacts of a frame.
func TestReloadMarksEachFramesContacts(t *testing.T) {
	r := record(t, sessionFrames, "")
	doc, _ := export(t, r.rec)
	clip, err := animation.ReadClip(doc, 0)
	if err != nil {
		t.Fatal(err)
	}
	most, total := 0, 0
	for _, f := range r.frames {
		most, total = max(most, len(f.contacts)), total+len(f.contacts)
	}
	if total == 0 {
		t.Fatal("the grasp touched nothing: the test would prove nothing")
	}
	if r.rec.Markers() != most || animation.FindNode(doc, animation.MarkerName(most)) >= 0 || animation.FindNode(doc, animation.MarkerName(most-1)) < 0 {
		t.Fatalf("%d markers, want %d: the most contacts of a frame", r.rec.Markers(), most)
	}
	for k, f := range r.frames {
		tk := r.keyTime(k)
		sameMarkers(t, "frame "+strconv.Itoa(k), markersAt(t, doc, clip, most, tk), f.contacts)
		if k+1 < len(r.frames) {
			sameMarkers(t, "midway after frame "+strconv.Itoa(k), markersAt(t, doc, clip, most, (tk+r.keyTime(k+1))/2), f.contacts)
		}
	}
}

// TestReloadedMeshesAreTheScenesAndTheLinks: the scene loader reads the
// file's scene objects as the scene was, triangle for triangle, and the
// links' hulls where the first frame posed them, to float32 precision.
func TestReloadedMeshesAreTheScenesAndTheLinks(t *testing.T) {
	r := record(t, 3, "")
	_, path := export(t, r.rec)
	m, err := env.Load(path, env.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for o, name := range r.scene.Objects {
		var want [][3]geom.Vec3
		for i, tri := range r.scene.Tris {
			if int(r.scene.Object[i]) == o {
				want = append(want, [3]geom.Vec3{r.scene.Verts[tri[0]], r.scene.Verts[tri[1]], r.scene.Verts[tri[2]]})
			}
		}
		sameTris(t, name, objectTris(t, m, name), want)
	}
	for l := range handmodel.Link(r.hand.NumLinks()) {
		g, x := r.hand.Geometry(l), r.frames[0].poses[l]
		var want [][3]geom.Vec3
		for _, tri := range g.Tris {
			want = append(want, [3]geom.Vec3{x.Apply(g.Verts[tri[0]]), x.Apply(g.Verts[tri[1]]), x.Apply(g.Verts[tri[2]])})
		}
		sameTris(t, l.String(), objectTris(t, m, l.String()), want)
	}
}
