package handmodel

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// SkinRig drives a skin with the WebXR hand joints (the OpenXR hand-joint
// list without the palm) from the glove's joint angles. The skin keeps
// its own bones: each joint turns about its rest frame by the rotation the
// hand model gives the link it stands for, carried from the link's frame
// (+Y along the bone, +Z out of the back) into the joint's (-Z along the
// bone, +Y out of the back). The wrist follows the hand model's palm, so
// the skin sits where the hand is. The metacarpals and tips ride rigidly
// on their parents; the palm arch, which the model gives the ring and
// little finger bases, turns those fingers at their knuckles.
type SkinRig struct {
	Skin   *Skin
	hand   *Hand
	parent []int        // a joint's parent joint; -1 for the wrist
	link   []Link       // the model's link a joint stands for; -1: none
	local  []mgl64.Mat4 // each joint's rest transform in its parent's frame
	rest   []mgl64.Mat3 // each driving link's local rotation at zero angles
	order  []int        // the joints, each after its parent
	owner  []Link       // the link each joint moves (a metacarpal's: the palm; a tip's: its phalanx)
	world  []mgl64.Mat4 // scratch: the posed joints
}

// webxrJoint is a WebXR hand joint and the link of the hand model it
// stands for (-1: none; it rides on its parent).
type webxrJoint struct {
	name string
	link Link
}

// webxrChains are the WebXR joints from the wrist out, finger by finger.
var webxrChains = [5][]webxrJoint{
	{{"thumb-metacarpal", ThumbMetacarpal}, {"thumb-phalanx-proximal", ThumbProximal}, {"thumb-phalanx-distal", ThumbDistal}, {"thumb-tip", -1}},
	fingerChain("index", IndexProximal),
	fingerChain("middle", MiddleProximal),
	fingerChain("ring", RingProximal),
	fingerChain("pinky", LittleProximal),
}

// fingerChain is a finger's WebXR joints, from its metacarpal out.
func fingerChain(f string, proximal Link) []webxrJoint {
	return []webxrJoint{
		{f + "-finger-metacarpal", -1}, {f + "-finger-phalanx-proximal", proximal},
		{f + "-finger-phalanx-intermediate", proximal + 1}, {f + "-finger-phalanx-distal", proximal + 2}, {f + "-finger-tip", -1},
	}
}

// openXRFromLink carries a rotation from a link frame of the hand model
// into a WebXR joint frame: x stays, the model's +Y (along the bone) is
// the joint's -Z, its +Z (back of the hand) the joint's +Y.
var openXRFromLink = mgl64.Mat3{1, 0, 0, 0, 0, -1, 0, 1, 0}

// NewSkinRig rigs skin, whose joints must carry the WebXR names, to be
// driven through hand's joints.
func NewSkinRig(skin *Skin, hand *Hand) (*SkinRig, error) {
	n := len(skin.Joints)
	sk, err := webxrSkeleton(skin)
	if err != nil {
		return nil, err
	}
	r := &SkinRig{Skin: skin, hand: hand, parent: sk.parent, link: sk.link, order: sk.order, owner: jointOwners(sk),
		local: make([]mgl64.Mat4, n), rest: make([]mgl64.Mat3, n), world: make([]mgl64.Mat4, n)}
	var zero Angles
	for j := range n {
		if p := r.parent[j]; p >= 0 {
			r.local[j] = skin.Rest[p].Inv().Mul4(skin.Rest[j])
		}
		if l := r.link[j]; l >= 0 {
			r.rest[j] = hand.local(l, &zero, hand.Params.Right).R
		}
	}
	return r, nil
}

// Pose poses the skin for joint angles q, its wrist on the hand model's
// palm as links places it (links: the model's Pose for the same q), into
// p. It allocates nothing once p has been used.
func (r *SkinRig) Pose(q *Angles, links []geom.Transform, p *SkinPose) error {
	r.Joints(q, links)
	return r.Skin.Pose(r.world, p)
}

// Joints returns the posed joints' world transforms (valid until the next
// call) for q, links being the hand model's Pose for q: the wrist rides on
// the palm, and each joint turns as its link does in its parent's frame.
func (r *SkinRig) Joints(q *Angles, links []geom.Transform) []mgl64.Mat4 {
	r.jointsInto(q, links, r.world)
	return r.world
}

// jointsInto is Joints into a caller's slice of one transform per joint.
func (r *SkinRig) jointsInto(q *Angles, links []geom.Transform, world []mgl64.Mat4) {
	right := r.hand.Params.Right
	toLink, fromLink := openXRFromLink.Transpose(), openXRFromLink
	for _, j := range r.order {
		p := r.parent[j]
		if p < 0 {
			m := mat4(links[Palm])
			world[j] = mulTurn(&m, &toLink)
			continue
		}
		world[j] = mul4(&world[p], &r.local[j])
		if l := r.link[j]; l >= 0 {
			lr := r.localTurn(l, q, links, right)
			turn := geom.MulMatTrans(&r.rest[j], &lr)
			turn = geom.MulMat(&fromLink, &turn)
			turn = geom.MulMat(&turn, &toLink)
			world[j] = mulTurn(&world[j], &turn)
		}
	}
}

// VertexLink returns the link skin vertex v rides on: its dominant
// joint's.
func (r *SkinRig) VertexLink(v int32) Link {
	return r.owner[r.Skin.Influence[v][dominant(r.Skin.Weight[v])]]
}

// Parent returns joint j's parent joint in the skin's order, or -1 for
// the wrist, the root of the WebXR hand's joints.
func (r *SkinRig) Parent(j int) int { return r.parent[j] }

// JointAt returns where the skin's joint of that name stands in the
// file's scene (its rest pose), and whether there is one.
func (r *SkinRig) JointAt(name string) (geom.Vec3, bool) {
	for j, n := range r.Skin.Joints {
		if n == name {
			return geom.FromMgl(r.Skin.Rest[j].Col(3).Vec3()), true
		}
	}
	return geom.Vec3{}, false
}

// skeleton is a skin's joints read as the WebXR hand's.
type skeleton struct {
	parent []int  // a joint's parent joint; -1 for the wrist
	link   []Link // the model's link a joint stands for; -1: none
	order  []int  // the joints, each after its parent
	wrist  int
}

// webxrSkeleton finds the WebXR hand joints among skin's by name.
func webxrSkeleton(skin *Skin) (skeleton, error) {
	n := len(skin.Joints)
	sk := skeleton{parent: make([]int, n), link: make([]Link, n)}
	index := map[string]int{}
	for j, name := range skin.Joints {
		index[name] = j
		sk.parent[j], sk.link[j] = -1, -1
	}
	find := func(name string) (int, error) {
		j, ok := index[name]
		if !ok {
			return 0, fmt.Errorf("handmodel: skin rig: the skin has no joint %q (WebXR hand joint names are needed; a config's joint table can rename a rig's)", name)
		}
		return j, nil
	}
	var err error
	if sk.wrist, err = find("wrist"); err != nil {
		return sk, err
	}
	sk.order = append(sk.order, sk.wrist)
	for _, chain := range webxrChains {
		up := sk.wrist
		for _, c := range chain {
			j, err := find(c.name)
			if err != nil {
				return sk, err
			}
			sk.parent[j], sk.link[j] = up, c.link
			sk.order = append(sk.order, j)
			up = j
		}
	}
	if len(sk.order) != n {
		return sk, fmt.Errorf("handmodel: skin rig: the skin has %d joints, the WebXR hand %d", n, len(sk.order))
	}
	return sk, nil
}

// localTurn is link l's rotation in its parent's frame: read off the
// posed links (Pose composed them so, to rounding) rather than turned
// again from the angles, except for a root.
func (r *SkinRig) localTurn(l Link, q *Angles, links []geom.Transform, right bool) mgl64.Mat3 {
	p := r.hand.Parent(l)
	if p < 0 {
		return r.hand.local(l, q, right).R
	}
	return geom.MulMatTrans(&links[p].R, &links[l].R)
}

// mul4 is mgl64's Mul4, in the same order, reading both matrices through
// pointers (Mul4's value receiver copies them): a skinned hand's joints
// take a few dozen of these per frame.
func mul4(a, b *mgl64.Mat4) (m mgl64.Mat4) {
	for c := 0; c < 16; c += 4 {
		b0, b1, b2, b3 := b[c], b[c+1], b[c+2], b[c+3]
		for r := range 4 {
			m[c+r] = a[r]*b0 + a[4+r]*b1 + a[8+r]*b2 + a[12+r]*b3
		}
	}
	return m
}

// mulTurn is mul4(a, t) for t the rotation m as a Mat4: only a's first
// three columns mix.
func mulTurn(a *mgl64.Mat4, m *mgl64.Mat3) (out mgl64.Mat4) {
	for c := range 3 {
		m0, m1, m2 := m[3*c], m[3*c+1], m[3*c+2]
		for r := range 4 {
			out[4*c+r] = a[r]*m0 + a[4+r]*m1 + a[8+r]*m2
		}
	}
	out[12], out[13], out[14], out[15] = a[12], a[13], a[14], a[15]
	return out
}

// mat4 is x as a homogeneous matrix.
func mat4(x geom.Transform) mgl64.Mat4 {
	m := x.R.Mat4()
	m[12], m[13], m[14] = x.T.X, x.T.Y, x.T.Z
	return m
}
