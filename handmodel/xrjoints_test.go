package handmodel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// xrHand is one hand the OpenXR joints are checked on.
type xrHand struct {
	name string
	h    *Hand
}

// xrHands are the procedural and the skinned hand of both sides (a
// skinned right hand also from the left hand's file, mirrored).
func xrHands(t testing.TB) []xrHand {
	t.Helper()
	return []xrHand{
		{"procedural right", mustHand(t, DefaultParams)},
		{"procedural left", mustHand(t, Params{Length: 0.17, Breadth: 0.08})},
		{"skinned right", skinnedHand(t, true, "right.glb")},
		{"skinned left", skinnedHand(t, false, "left.glb")},
		{"skinned right from left.glb", skinnedHand(t, true, "left.glb")},
	}
}

// xrPose returns every joint's frame for the links' poses.
func xrPose(table *[NumXRJoints]XRJointPlace, links []geom.Transform) [NumXRJoints]geom.Transform {
	var out [NumXRJoints]geom.Transform
	for j := range table {
		out[j] = table[j].Pose(links[table[j].Link])
	}
	return out
}

// TestXRJointsAreOpenXRsInWebXRNames: 26 joints in XrHandJointEXT's order,
// named as WebXR names them, and the palm, which WebXR lacks.
func TestXRJointsAreOpenXRsInWebXRNames(t *testing.T) {
	var names []string
	for j := range NumXRJoints {
		names = append(names, j.String())
	}
	if NumXRJoints != 26 || names[0] != "palm" || !slices.Equal(names[1:], webxrJoints) {
		t.Errorf("joints %v: want palm, then %v", names, webxrJoints)
	}
	if XRIndexTip.String() != "index-finger-tip" || XRLittleMetacarpal != 21 || XRLittleTip.String() != "pinky-finger-tip" {
		t.Errorf("index tip %q, little metacarpal %d, little tip %q", XRIndexTip, XRLittleMetacarpal, XRLittleTip)
	}
}

// TestXRJointsAreWhereTheirDefinitionsSay: on every hand, at random
// poses and wrists, each joint is a rotation in OpenXR's axes where its
// definition puts it: a phalanx's joint at its link's origin with -Z
// along the bone and +Y its back; a tip at the end of the distal
// phalanx; the wrist at the palm's origin, -Z toward the fingers; each
// finger's metacarpal with -Z toward its knuckle (the next joint); the
// palm midway between the middle metacarpal's joint and knuckle, with
// its axes. A skinned hand's joints (all but the palm) are its skin's
// joints as the skin rig poses them.
func TestXRJointsAreWhereTheirDefinitionsSay(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 26))
	for _, hc := range xrHands(t) {
		h := hc.h
		table := h.XRJoints()
		for trial := range 20 {
			q := randomAngles(r, h)
			if trial == 0 {
				q = Angles{}
			}
			wrist, err := geom.FromQuat(mgl64.Quat{W: r.NormFloat64(), V: mgl64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}}, geom.Vec3{X: r.Float64(), Y: r.Float64(), Z: r.Float64()})
			if err != nil {
				t.Fatal(err)
			}
			links := pose(h, q, wrist)
			x := xrPose(table, links)
			fail := func(j XRJoint, format string, a ...any) {
				t.Helper()
				t.Fatalf("%s, pose %d: %v: %s", hc.name, trial, j, fmt.Sprintf(format, a...))
			}
			for j := range NumXRJoints {
				if !rigid(x[j].R) {
					fail(j, "the frame %v is not a rotation", x[j].R)
				}
				l := links[table[j].Link]
				switch {
				case j == XRWrist:
					if !nearTo(x[j].T, links[Palm].T, 1e-9) || !nearTo(geom.Col(&x[j].R, 2), geom.Col(&links[Palm].R, 1).Mul(-1), 1e-9) || !nearTo(geom.Col(&x[j].R, 1), geom.Col(&links[Palm].R, 2), 1e-9) {
						fail(j, "not at the palm's origin with -Z toward the fingers")
					}
				case j == XRPalm:
					mc, kn := x[XRMiddleMetacarpal], x[XRMiddleProximal]
					if !nearTo(x[j].T, mc.T.Add(kn.T).Mul(0.5), 1e-9) || !x[j].R.ApproxEqualThreshold(mc.R, 1e-9) {
						fail(j, "at %v, not midway along the middle metacarpal (%v to %v) with its axes", x[j].T, mc.T, kn.T)
					}
				case slices.Contains(xrMetacarpals[:], j):
					bone := x[j+1].T.Sub(x[j].T).Normalize()
					// The procedural hand's metacarpal points at its
					// knuckle by construction; the skin's bones nearly.
					tol := 1e-9
					if h.Rig() != nil {
						tol = 0.2
					}
					if !nearTo(geom.Col(&x[j].R, 2).Mul(-1), bone, tol) {
						fail(j, "-Z is %v, the knuckle is along %v", geom.Col(&x[j].R, 2).Mul(-1), bone)
					}
				case slices.Contains(xrTips[:], j):
					if h.Rig() == nil {
						end := l.Apply(geom.Vec3{Y: distalLength(h, slices.Index(xrTips[:], j))})
						if !nearTo(x[j].T, end, 1e-9) {
							fail(j, "at %v, the distal phalanx ends at %v", x[j].T, end)
						}
					}
					fallthrough
				default: // on a phalanx
					if j != XRThumbTip && j != XRIndexTip && j != XRMiddleTip && j != XRRingTip && j != XRLittleTip && !nearTo(x[j].T, l.T, 1e-9) {
						fail(j, "at %v, its link's origin is %v", x[j].T, l.T)
					}
					// A skin's tip joint has its own frame, turned a
					// little from its phalanx's.
					tol := 1e-9
					if h.Rig() != nil && slices.Contains(xrTips[:], j) {
						tol = 0.1
					}
					if !nearTo(geom.Col(&x[j].R, 2), geom.Col(&l.R, 1).Mul(-1), tol) || !nearTo(geom.Col(&x[j].R, 1), geom.Col(&l.R, 2), tol) {
						fail(j, "axes %v, the link's %v: want -Z along its +Y and +Y its +Z", x[j].R, l.R)
					}
				}
			}
			if rig := h.Rig(); rig != nil {
				world := rig.Joints(&q, links)
				for j := XRWrist; j < NumXRJoints; j++ {
					k := slices.Index(rig.Skin.Joints, j.String())
					m := world[k]
					if !nearTo(x[j].T, geom.FromMgl(m.Col(3).Vec3()), 1e-7) {
						fail(j, "at %v, the skin's joint at %v", x[j].T, m.Col(3).Vec3())
					}
					for c := range 3 {
						if !nearTo(geom.Col(&x[j].R, c), geom.FromMgl(m.Col(c).Vec3()).Normalize(), 1e-5) {
							fail(j, "axis %d is %v, the skin's %v", c, geom.Col(&x[j].R, c), m.Col(c).Vec3())
						}
					}
				}
			}
		}
	}
}

// distalLength is the length of finger f's distal phalanx (the thumb's
// is its third bone) on a procedural hand by Buchholz et al.'s fractions
// of its length: the model's, not the joints' table's.
func distalLength(h *Hand, f int) float64 {
	if f == 0 {
		return segmentFractions[0][2] * h.Params.Length
	}
	return segmentFractions[f][3] * h.Params.Length
}

// TestXRTipsEndTheDistalPhalanges: on the procedural hand each tip lies
// on its distal phalanx's bone at the phalanx's length (by the model's
// fractions), inside the link's hull, which goes on beyond it along the
// bone by less than the tip's radius (the fingertip's pad): a tip short
// of the bone's end, or beyond the hull, is not a fingertip.
func TestXRTipsEndTheDistalPhalanges(t *testing.T) {
	for _, hc := range xrHands(t) {
		h := hc.h
		if h.Rig() != nil {
			continue
		}
		table := h.XRJoints()
		for f, j := range xrTips {
			p := &table[j]
			at := p.Offset.T
			if want := (geom.Vec3{Y: distalLength(h, f)}); !nearTo(at, want, 1e-12) {
				t.Errorf("%s: %v at %v on its link, want %v", hc.name, j, at, want)
			}
			if beyond := exitByRays(h.Geometry(p.Link), at, geom.Vec3{Y: 1}); !(beyond > 0 && beyond <= p.Radius) {
				t.Errorf("%s: %v: the hull goes on %.4f m beyond it along the bone, want more than 0 and at most its radius %.4f m", hc.name, j, beyond, p.Radius)
			}
		}
	}
}

// TestXRJointsFollowOpenXRsAxesAtRest: with the hand flat, along each
// finger every joint's -Z points at the next joint (the bone toward the
// fingertip), its +Y out of the back of the hand (the palm's +Z), for
// both sides: a left hand's frames are a right hand's mirrored, still
// right-handed.
func TestXRJointsFollowOpenXRsAxesAtRest(t *testing.T) {
	for _, hc := range xrHands(t) {
		links := pose(hc.h, Angles{}, geom.Identity())
		x := xrPose(hc.h.XRJoints(), links)
		back := geom.Col(&links[Palm].R, 2)
		// The skin's bones bend a little at rest and its thumb is turned
		// about its bone: looser there.
		along, up := 1e-9, 0.9
		if hc.h.Rig() != nil {
			along = 0.2
		}
		for f := range 5 {
			first, n := XRThumbMetacarpal, 4
			if f > 0 {
				first, n = xrMetacarpals[f-1], 5
			}
			for k := range n - 1 {
				j := first + XRJoint(k)
				bone := x[j+1].T.Sub(x[j].T).Normalize()
				if !nearTo(geom.Col(&x[j].R, 2).Mul(-1), bone, along) {
					t.Errorf("%s: %v: -Z is %v, the next joint is along %v", hc.name, j, geom.Col(&x[j].R, 2).Mul(-1), bone)
				}
				if f > 0 && geom.Col(&x[j].R, 1).Dot(back) < up {
					t.Errorf("%s: %v: +Y is %v, the back of the hand %v", hc.name, j, geom.Col(&x[j].R, 1), back)
				}
			}
		}
		thumb := x[XRThumbTip].T.Sub(x[XRWrist].T)
		if side := thumb.Dot(geom.Col(&links[Palm].R, 0)); (side < 0) != hc.h.Params.Right {
			t.Errorf("%s: the thumb tip is on the %v side of the palm", hc.name, map[bool]string{true: "+X", false: "-X"}[side > 0])
		}
	}
}

// exitByRays is how far from p along d the ray leaves a convex hull,
// found by intersecting it with every triangle (the farthest hit): an
// independent measure of hullExit.
func exitByRays(g *LinkGeometry, p, d geom.Vec3) float64 {
	far := 0.0
	for _, tri := range g.Tris {
		if s, ok := geom.RayTriangle(p, d, g.Verts[tri[0]], g.Verts[tri[1]], g.Verts[tri[2]]); ok {
			far = max(far, s)
		}
	}
	return far
}

// TestXRJointRadiiAreTheHandsHalfThickness: each procedural joint's
// radius is the mean distance to its link's surface across the bone (±X
// and ±Y; ±Y within the palm, a knuckle's on the palm's surface), as
// ray-triangle intersections measure it, and
// the wrist's is half the palm's thickness exactly; a skinned hand's,
// measured on its skin, are within a third of the procedural hand's of
// its size, joint by joint (two independent models of a hand); every
// radius lies between 3 mm and 2.5 cm, and a finger's tip is thinner
// than its first phalanx.
func TestXRJointRadiiAreTheHandsHalfThickness(t *testing.T) {
	for _, hc := range xrHands(t) {
		h := hc.h
		table := h.XRJoints()
		var proc *[NumXRJoints]XRJointPlace
		if h.Rig() != nil {
			proc = mustHand(t, Params{Length: h.Params.Length, Breadth: h.Params.Breadth, Right: h.Params.Right}).XRJoints()
		}
		for j := range table {
			p := &table[j]
			if !(p.Radius >= 0.003 && p.Radius <= 0.025) {
				t.Errorf("%s: %v: radius %.5f m, want 3-25 mm", hc.name, XRJoint(j), p.Radius)
			}
			if proc != nil {
				// Within the palm the skin is fuller than the procedural
				// hull: the ball of the thumb above all.
				lo, hi := 2.0/3, 1.5
				if XRJoint(j).inPalm() {
					lo, hi = 0.5, 2
				}
				if r := p.Radius / proc[j].Radius; !(r > lo && r < hi) {
					t.Errorf("%s: %v: radius %.4f m on the skin, %.4f m on the procedural hand of its size", hc.name, XRJoint(j), p.Radius, proc[j].Radius)
				}
				continue
			}
			g, at := h.Geometry(p.Link), geom.Identity()
			if XRJoint(j).knuckle() {
				rest := pose(h, Angles{}, geom.Identity())
				g, at = h.Geometry(Palm), rest[p.Link]
			}
			dirs := xrAcross(XRJoint(j), p)
			want := 0.0
			for _, d := range dirs {
				want += exitByRays(g, at.Apply(p.Offset.T), at.Rotate(d)) / float64(len(dirs))
			}
			if math.Abs(p.Radius-want) > 1e-9 {
				t.Errorf("%s: %v: radius %.5f m, rays say %.5f m", hc.name, XRJoint(j), p.Radius, want)
			}
		}
		for f, tip := range xrTips {
			first := XRThumbMetacarpal
			if f > 0 {
				first = xrMetacarpals[f-1] + 1
			}
			if !(table[tip].Radius < table[first].Radius) {
				t.Errorf("%s: %v radius %.4f, %v %.4f: want the tip thinner", hc.name, tip, table[tip].Radius, first, table[first].Radius)
			}
		}
		if h.Rig() == nil {
			if want := 0.15 * h.Params.Breadth; math.Abs(table[XRWrist].Radius-want) > 1e-9 {
				t.Errorf("%s: wrist radius %v, half the palm's thickness is %v", hc.name, table[XRWrist].Radius, want)
			}
		}
	}
}

func nearTo(a, b geom.Vec3, tol float64) bool { return a.Sub(b).Len() <= tol }
