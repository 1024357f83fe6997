package handmodel

import (
	"fmt"
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// A skinned hand is the model with the skin's bones: each link's frame is
// its WebXR joint's, carried into the model's convention (+Y along the
// bone, +Z out of the back), its joint offsets are the skin's, and its
// hull is the hull of the skin vertices its joints dominate. The glove's
// angles turn the links as they turn the procedural hand's, so the
// collision hand and the rendered skin move together: at any pose a link's
// frame is its joint's (TestSkinnedHandLinksAreTheSkinsJoints) and the
// vertices it dominates ride on it.

// linkJoint names the WebXR joint whose frame a link takes.
var linkJoint = [FingerLinks]string{
	"wrist", "thumb-metacarpal", "thumb-phalanx-proximal", "thumb-phalanx-distal",
	"index-finger-phalanx-proximal", "index-finger-phalanx-intermediate", "index-finger-phalanx-distal",
	"middle-finger-phalanx-proximal", "middle-finger-phalanx-intermediate", "middle-finger-phalanx-distal",
	"ring-finger-phalanx-proximal", "ring-finger-phalanx-intermediate", "ring-finger-phalanx-distal",
	"pinky-finger-phalanx-proximal", "pinky-finger-phalanx-intermediate", "pinky-finger-phalanx-distal",
}

// rigidTol is how far from orthonormal a joint's rest rotation may be: a
// skin's bones are rigid (glTF allows scaled nodes, which no link can
// follow).
const rigidTol = 1e-6

// newSkinned builds the hand of side right on skin's bones, mirroring the
// skin first if it is the other hand.
func newSkinned(skin *Skin, p Params) (*Hand, error) {
	if p.Forearm {
		return nil, fmt.Errorf("handmodel: a skinned hand has no forearm link")
	}
	sk, err := webxrSkeleton(skin)
	if err != nil {
		return nil, err
	}
	rest := func(j int) geom.Transform { return linkFrame(skin.Rest[j]) }
	for j := range skin.Joints {
		if !rigid(skin.Rest[j].Mat3()) {
			return nil, fmt.Errorf("handmodel: skin joint %q is scaled or sheared: the links need rigid bones", skin.Joints[j])
		}
	}
	thumb := rest(sk.wrist).Inverse().Apply(rest(jointIndex(skin, "thumb-tip")).T)
	if right := thumb.X < 0; right != p.Right {
		skin = skin.Mirrored()
	}
	frame := make([]geom.Transform, FingerLinks)
	for l := range Link(FingerLinks) {
		frame[l] = rest(jointIndex(skin, linkJoint[l]))
	}
	p.Length = frame[Palm].T.Sub(rest(jointIndex(skin, "middle-finger-tip")).T).Len()
	// The procedural hand spaces the index and little knuckles 0.59
	// breadths apart (knuckleX).
	p.Breadth = frame[IndexProximal].T.Sub(frame[LittleProximal].T).Len() / (knuckleX[1] - knuckleX[4])
	proc, err := New(Params{Length: p.Length, Breadth: p.Breadth, Right: p.Right})
	if err != nil {
		return nil, fmt.Errorf("handmodel: the skin's hand: %w", err)
	}
	h := &Hand{Params: p, Limits: proc.Limits, links: slices.Clone(proc.links)}
	var zero Angles
	for l := range Link(FingerLinks) {
		d := &h.links[l]
		d.skinned = true
		d.pre = geom.Identity()
		if d.parent >= 0 {
			d.pre = frame[d.parent].Inverse().Mul(frame[l])
		}
		d.restT = proc.local(l, &zero, false).R.Transpose()
		d.origin = geom.Vec3{}
	}
	if h.geom, err = skinHulls(skin, sk, frame); err != nil {
		return nil, err
	}
	h.rig, err = NewSkinRig(skin, h)
	return h, err
}

// linkFrame is a WebXR joint's world transform in the model's link
// convention, its rotation made orthonormal (a file's float32 frames are
// rotations only to about 1e-7, and the links' frames must be rigid).
func linkFrame(m mgl64.Mat4) geom.Transform {
	r := m.Mat3().Mul3(openXRFromLink)
	x := geom.Col(&r, 0).Normalize()
	y := geom.Col(&r, 1).Sub(x.Mul(x.Dot(geom.Col(&r, 1)))).Normalize()
	return geom.Transform{R: geom.FromCols(x, y, x.Cross(y)), T: geom.FromMgl(m.Col(3).Vec3())}
}

// rigid reports whether r is a rotation to rigidTol.
func rigid(r mgl64.Mat3) bool {
	d := r.Transpose().Mul3(r).Sub(mgl64.Ident3())
	for _, x := range d {
		if !(math.Abs(x) <= rigidTol) {
			return false
		}
	}
	return r.Det() > 0
}

// jointIndex is the index of a joint webxrSkeleton has found.
func jointIndex(s *Skin, name string) int {
	for j, n := range s.Joints {
		if n == name {
			return j
		}
	}
	panic("handmodel: joint " + name + " vanished after the skeleton was read")
}

// skinHulls gives each link the hull, in its frame, of the rest-pose
// vertices its joints dominate (a metacarpal's go to the palm, a tip's to
// its distal phalanx).
func skinHulls(skin *Skin, sk skeleton, frame []geom.Transform) ([]LinkGeometry, error) {
	var restPose SkinPose
	if err := skin.Pose(skin.Rest, &restPose); err != nil {
		return nil, err
	}
	owner := jointOwners(sk)
	pts := make([][]geom.Vec3, FingerLinks)
	for v, x := range restPose.Verts {
		l := owner[skin.Influence[v][dominant(skin.Weight[v])]]
		pts[l] = append(pts[l], frame[l].Inverse().Apply(x))
	}
	out := make([]LinkGeometry, FingerLinks)
	for l := range Link(FingerLinks) {
		g, err := hullGeometry(pts[l])
		if err != nil {
			return nil, fmt.Errorf("handmodel: skin: link %v (%d vertices): %w", l, len(pts[l]), err)
		}
		out[l] = g
	}
	return out, nil
}

// jointOwners returns the link each joint moves: its own, or for a
// metacarpal or a tip the one it rides on.
func jointOwners(sk skeleton) []Link {
	owner := make([]Link, len(sk.parent))
	for _, j := range sk.order {
		switch {
		case sk.link[j] >= 0:
			owner[j] = sk.link[j]
		case sk.parent[j] < 0:
			owner[j] = Palm
		default:
			owner[j] = owner[sk.parent[j]]
		}
	}
	return owner
}

// dominant is the slot of the largest weight.
func dominant(w [4]float64) int {
	k := 0
	for i := 1; i < 4; i++ {
		if w[i] > w[k] {
			k = i
		}
	}
	return k
}
