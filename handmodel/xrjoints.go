package handmodel

import (
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// XRJoint indexes the 26 hand joints of OpenXR's XR_EXT_hand_tracking, in
// the order of its XrHandJointEXT enum.
type XRJoint int

// The OpenXR hand joints.
const (
	XRPalm XRJoint = iota
	XRWrist
	XRThumbMetacarpal
	XRThumbProximal
	XRThumbDistal
	XRThumbTip
	XRIndexMetacarpal
	XRIndexProximal
	XRIndexIntermediate
	XRIndexDistal
	XRIndexTip
	XRMiddleMetacarpal
	XRMiddleProximal
	XRMiddleIntermediate
	XRMiddleDistal
	XRMiddleTip
	XRRingMetacarpal
	XRRingProximal
	XRRingIntermediate
	XRRingDistal
	XRRingTip
	XRLittleMetacarpal
	XRLittleProximal
	XRLittleIntermediate
	XRLittleDistal
	XRLittleTip
	NumXRJoints
)

// xrJointNames are the joints' WebXR Hand Input names; WebXR has no palm,
// which is "palm" here.
var xrJointNames = func() [NumXRJoints]string {
	out := [NumXRJoints]string{"palm", "wrist", "thumb-metacarpal", "thumb-phalanx-proximal", "thumb-phalanx-distal", "thumb-tip"}
	for f, name := range []string{"index", "middle", "ring", "pinky"} {
		for k, j := range []string{"metacarpal", "phalanx-proximal", "phalanx-intermediate", "phalanx-distal", "tip"} {
			out[int(XRIndexMetacarpal)+5*f+k] = name + "-finger-" + j
		}
	}
	return out
}()

// WebXRJointNames are the 25 joint names of WebXR Hand Input, wrist to
// pinky-finger-tip: the names a skinned hand's joints must have, or be
// given by a config's joint table.
func WebXRJointNames() []string { return slices.Clone(xrJointNames[XRWrist:]) }

// String returns the joint's WebXR name ("index-finger-phalanx-distal"),
// or "palm".
func (j XRJoint) String() string {
	if j >= 0 && j < NumXRJoints {
		return xrJointNames[j]
	}
	return "xr-joint?"
}

// XRJointPlace is where an OpenXR joint rides on the hand: at every pose
// its frame is its link's times Offset (Offset is the joint's frame in
// the link's), in OpenXR's joint axes: -Z along the bone toward the
// fingertip, +Y out of the back of the hand or the nail, X = Y × Z.
// Radius is the hand's half-thickness there (XRJoints says how it is
// measured).
type XRJointPlace struct {
	Link   Link
	Offset geom.Transform
	Radius float64
}

// Pose returns the joint's frame for its link at pose x.
func (p *XRJointPlace) Pose(x geom.Transform) geom.Transform { return x.Mul(p.Offset) }

// XRJoints returns the hand's 26 OpenXR joints, each riding on a link:
//
//   - each phalanx's joint (thumb metacarpal, thumb proximal and distal,
//     a finger's proximal, intermediate and distal) is its link's frame
//     (the joint that moves the bone), turned into OpenXR's axes;
//   - each tip rides on its distal phalanx at the end of the bone;
//   - the wrist, the palm and the four finger metacarpals ride on the
//     palm: the wrist at the wrist's centre with -Z toward the fingers,
//     each metacarpal at the bone's base with -Z toward its knuckle (the
//     procedural hand's metacarpals run from the wrist line, at 0.7 of
//     the knuckle's offset across the palm, as the carpus is narrower
//     than the knuckles, to the knuckle), the palm at the centre of the
//     middle metacarpal, with its axes.
//
// A skinned hand's joints are its skin's (WebXR's) frames and places, the
// palm again at the middle metacarpal's centre. The radius is the mean
// distance from the joint to the hand's surface along its ±X and ±Y,
// across the bone; for the joints within the palm (the wrist, the palm,
// the metacarpals, the knuckles) only along ±Y, half the hand's
// thickness there, as ±X would measure the palm's width. The surface is
// the joint's link's hull on the procedural hand (a knuckle's: the
// palm's, which holds it), and the skin at rest on a skinned one (its
// joints lie where two links' vertices meet, outside either one's hull).
// The table is built from the hand's current link shapes (SetLinkMesh
// changes the procedural radii).
func (h *Hand) XRJoints() *[NumXRJoints]XRJointPlace {
	var t [NumXRJoints]XRJointPlace
	if h.rig != nil {
		h.rig.xrPlaces(&t)
		return &t
	}
	h.procXRPlaces(&t)
	rest := make([]geom.Transform, len(h.links))
	h.Pose(&Angles{}, geom.Identity(), rest)
	for j := range t {
		p := &t[j]
		// A knuckle is measured on the palm, which holds it, as the skin
		// is; the other joints on their links.
		on, at := p.Link, geom.Transform{R: mgl64.Ident3()}
		if XRJoint(j).knuckle() {
			on, at = Palm, rest[Palm].Inverse().Mul(rest[p.Link])
		}
		sum, dirs := 0.0, xrAcross(XRJoint(j), p)
		for _, d := range dirs {
			sum += hullExit(&h.geom[on], at.Apply(p.Offset.T), at.Rotate(d))
		}
		p.Radius = sum / float64(len(dirs))
	}
	return &t
}

// knuckle reports whether j is a finger's knuckle (its proximal
// phalanx's joint), which sits in the palm.
func (j XRJoint) knuckle() bool { return j >= XRIndexMetacarpal && (j-XRIndexMetacarpal)%5 == 1 }

// xrAcross are the directions, in its link's frame, along which joint
// j's radius is measured: its ±Y and ±X, or ±Y alone within the palm.
func xrAcross(j XRJoint, p *XRJointPlace) []geom.Vec3 {
	x, y := geom.Col(&p.Offset.R, 0), geom.Col(&p.Offset.R, 1)
	if j.inPalm() {
		return []geom.Vec3{y, y.Mul(-1)}
	}
	return []geom.Vec3{y, y.Mul(-1), x, x.Mul(-1)}
}

// inPalm reports whether j lies within the palm: the wrist, the palm,
// the metacarpals' bases and the fingers' knuckles (the thumb's
// metacarpal base too, in the ball of the thumb).
func (j XRJoint) inPalm() bool {
	switch j {
	case XRPalm, XRWrist, XRThumbMetacarpal:
		return true
	}
	return j >= XRIndexMetacarpal && (j-XRIndexMetacarpal)%5 == 0 || j.knuckle()
}

// xrFromLink turns a link frame's axes into OpenXR's joint axes: the
// joint's frame is the link's times this (openXRFromLink's inverse).
var xrFromLink = openXRFromLink.Transpose()

// xrLinks is the link each joint rides on.
var xrLinks = func() [NumXRJoints]Link {
	out := [NumXRJoints]Link{Palm, Palm, ThumbMetacarpal, ThumbProximal, ThumbDistal, ThumbDistal}
	for f := range Link(4) {
		first := IndexProximal + 3*f
		copy(out[XRIndexMetacarpal+5*XRJoint(f):], []Link{Palm, first, first + 1, first + 2, first + 2})
	}
	return out
}()

// xrTips are the fingertips, thumb first, and xrMetacarpals the four
// fingers' metacarpals.
var (
	xrTips        = [5]XRJoint{XRThumbTip, XRIndexTip, XRMiddleTip, XRRingTip, XRLittleTip}
	xrMetacarpals = [4]XRJoint{XRIndexMetacarpal, XRMiddleMetacarpal, XRRingMetacarpal, XRLittleMetacarpal}
)

// procXRPlaces places the joints on the procedural hand from its link
// table (the left hand's, mirrored for a right one): the bones' lengths
// and the knuckles are the links', so the joints follow the table.
func (h *Hand) procXRPlaces(t *[NumXRJoints]XRJointPlace) {
	for j := range t {
		// A phalanx's joint is its link's frame.
		t[j] = XRJointPlace{Link: xrLinks[j], Offset: geom.Transform{R: xrFromLink}}
	}
	for _, j := range xrTips {
		// At the end of its distal phalanx's bone.
		t[j].Offset.T = geom.Vec3{Y: h.links[xrLinks[j]].length}
	}
	// The palm's joints, in the left hand's palm frame (+Y toward the
	// fingers, +Z out of the back), mirrored for a right hand as its
	// links are.
	onPalm := func(at, toward geom.Vec3) geom.Transform {
		x := geom.Transform{R: xrAxes(toward.Sub(at), geom.Vec3{Z: 1}), T: at}
		if h.Params.Right {
			x = mirror(x)
		}
		return x
	}
	// A metacarpal runs from the wrist line to its knuckle: the origin of
	// the finger's proximal phalanx, the next joint's link.
	base := func(knuckle geom.Vec3) geom.Vec3 { return geom.Vec3{X: carpusShare * knuckle.X} }
	for _, j := range xrMetacarpals {
		knuckle := h.links[xrLinks[j+1]].origin
		t[j].Offset = onPalm(base(knuckle), knuckle)
	}
	middle := h.links[xrLinks[XRMiddleProximal]].origin
	t[XRPalm].Offset = onPalm(base(middle).Add(middle).Mul(0.5), middle)
}

// carpusShare is how far across the palm a procedural metacarpal's base
// is, as a share of its knuckle's offset.
const carpusShare = 0.7

// xrAxes is the rotation whose -Z is along bone and whose +Y is back made
// perpendicular to it.
func xrAxes(bone, back geom.Vec3) mgl64.Mat3 {
	z := bone.Normalize().Mul(-1)
	y := back.Sub(z.Mul(z.Dot(back))).Normalize()
	return geom.FromCols(y.Cross(z), y, z)
}

// xrPlaces places the joints on a skinned hand: each at its skin joint's
// rest frame (the palm at the middle metacarpal's centre), in the rest
// frame of the link it rides on.
func (r *SkinRig) xrPlaces(t *[NumXRJoints]XRJointPlace) {
	// A joint's frame is read as the links' are (linkFrame: made
	// orthonormal), then turned into OpenXR's axes, so that a phalanx's
	// joint is its link's frame exactly.
	rest := func(name string) geom.Transform {
		f := linkFrame(r.Skin.Rest[jointIndex(r.Skin, name)])
		return geom.Transform{R: f.R.Mul3(xrFromLink), T: f.T}
	}
	linkRest := func(l Link) geom.Transform { return linkFrame(r.Skin.Rest[jointIndex(r.Skin, linkJoint[l])]) }
	for j := XRWrist; j < NumXRJoints; j++ {
		l := xrLinks[j]
		t[j] = XRJointPlace{Link: l, Offset: linkRest(l).Inverse().Mul(rest(j.String()))}
	}
	mid, knuckle := t[XRMiddleMetacarpal].Offset, linkRest(Palm).Inverse().Apply(linkRest(MiddleProximal).T)
	t[XRPalm] = XRJointPlace{Link: Palm, Offset: geom.Transform{R: mid.R, T: mid.T.Add(knuckle).Mul(0.5)}}
	// The radius is measured on the skin at rest: a joint sits where two
	// links' vertices meet, outside either one's hull.
	var skin SkinPose
	if err := r.Skin.Pose(r.Skin.Rest, &skin); err != nil {
		panic("handmodel: the rig's skin does not pose at rest: " + err.Error())
	}
	for j := range t {
		p := &t[j]
		l := linkRest(p.Link)
		sum, n := 0.0, 0
		for _, d := range xrAcross(XRJoint(j), p) {
			if s, ok := skinExit(&skin, r.Skin.Tris, l.Apply(p.Offset.T), l.Rotate(d)); ok {
				sum, n = sum+s, n+1
			}
		}
		if n > 0 {
			p.Radius = sum / float64(n)
		}
	}
}

// skinExit returns the distance from p along the unit direction d to the
// nearest triangle of the posed skin, and whether the ray meets one.
func skinExit(skin *SkinPose, tris [][3]int32, p, d geom.Vec3) (float64, bool) {
	best, hit := math.Inf(1), false
	for _, tri := range tris {
		if s, ok := geom.RayTriangle(p, d, skin.Verts[tri[0]], skin.Verts[tri[1]], skin.Verts[tri[2]]); ok && s > 0 && s < best {
			best, hit = s, true
		}
	}
	return best, hit
}

// hullSkin is how far outside a hull (m) a point still counts as on it:
// a knuckle lies on the palm's hull.
const hullSkin = 1e-9

// hullExit returns how far from p, along the unit direction d, the ray
// leaves hull g (0 if p is outside it).
func hullExit(g *LinkGeometry, p, d geom.Vec3) float64 {
	best := math.Inf(1)
	for _, tri := range g.Tris {
		a, b, c := g.Verts[tri[0]], g.Verts[tri[1]], g.Verts[tri[2]]
		n := b.Sub(a).Cross(c.Sub(a))
		ahead := n.Dot(a.Sub(p)) // > 0: p is behind the face
		if ahead < -hullSkin*n.Len() {
			return 0
		}
		if nd := n.Dot(d); nd > 0 {
			best = min(best, ahead/nd)
		}
	}
	if math.IsInf(best, 0) {
		return 0
	}
	return best
}
