package handmodel

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// Link indexes the hand's rigid bodies.
type Link int

// The links. Forearm exists only in hands built with a forearm.
const (
	Palm Link = iota
	ThumbMetacarpal
	ThumbProximal
	ThumbDistal
	IndexProximal
	IndexMiddle
	IndexDistal
	MiddleProximal
	MiddleMiddle
	MiddleDistal
	RingProximal
	RingMiddle
	RingDistal
	LittleProximal
	LittleMiddle
	LittleDistal
	Forearm
	MaxLinks
)

// FingerLinks is the number of links of the hand proper (palm and fingers).
const FingerLinks = 16

var linkNames = [MaxLinks]string{
	"palm", "thumb1", "thumb2", "thumb3", "index1", "index2", "index3",
	"middle1", "middle2", "middle3", "ring1", "ring2", "ring3",
	"little1", "little2", "little3", "forearm",
}

func (l Link) String() string {
	if l >= 0 && l < MaxLinks {
		return linkNames[l]
	}
	return "link?"
}

// Parent returns a link's parent, or -1 for the root.
func (h *Hand) Parent(l Link) Link { return h.links[l].parent }

// rot is one elementary rotation: angle = scale·q[joint] (+ offset) about a
// frame axis (0 x, 1 y, 2 z). joint < 0 is a fixed rotation by offset.
type rot struct {
	joint  Joint
	axis   int
	scale  float64
	offset float64
}

// linkDef places a link: T = T_parent · Translate(origin) · pre... · post...,
// where pre are rotations about the parent-aligned frame at the joint and
// post about the link's own axes after them.
type linkDef struct {
	parent Link
	origin geom.Vec3
	rots   []rot
	// Geometry: a tapered rod of this length from radius r0 to r1, or for
	// the palm and forearm a hull given in points.
	length, r0, r1 float64
	hull           []geom.Vec3
	// A skinned hand's link: T = T_parent · pre · restT · rots, where pre
	// is the skin's rest transform of the link in its parent's and restT
	// undoes the rots' rest turn, so that only the joints' turn remains
	// (mirrored for a right hand, like every turn of the table).
	skinned bool
	pre     geom.Transform
	restT   mgl64.Mat3
}

// Params sizes the procedural hand.
type Params struct {
	Length  float64 // wrist crease to middle fingertip, m (adult: 0.17-0.21)
	Breadth float64 // across the metacarpal heads, m (adult: 0.075-0.095)
	Right   bool
	Forearm bool // add a forearm link (parent of the palm)
	// Mesh is a skinned hand (glTF 2.0 with the WebXR joints, such as the
	// WebXR generic hand) whose bones and shape the hand takes instead of
	// the procedural ones; its size is its own (Length and Breadth are
	// measured from it). The other hand's file is mirrored.
	Mesh string
	// JointNames renames a rig's joints to the WebXR names the hand
	// needs: WebXR name -> the file's joint name.
	JointNames map[string]string
}

// DefaultParams is a mid-sized adult right hand.
var DefaultParams = Params{Length: 0.19, Breadth: 0.085, Right: true}

// Hand is an articulated hand: its link tree, joint limits and geometry.
type Hand struct {
	Params Params
	Limits [NumJoints]Limit
	links  []linkDef
	geom   []LinkGeometry
	rig    *SkinRig // a skinned hand's skin; nil for the procedural hand
}

// Buchholz et al. 1992: segment lengths as fractions of hand length,
// metacarpal first.
var segmentFractions = [5][4]float64{
	{0.251, 0.196, 0.158, 0},     // thumb: metacarpal, proximal, distal
	{0.374, 0.265, 0.143, 0.097}, // index: metacarpal, proximal, middle, distal
	{0.373, 0.277, 0.170, 0.108}, // middle
	{0.336, 0.259, 0.165, 0.107}, // ring
	{0.295, 0.206, 0.117, 0.093}, // little
}

// Finger widths at the proximal phalanx as fractions of hand breadth, and
// the knuckles' positions across the palm.
var (
	fingerWidth = [5]float64{0.25, 0.22, 0.22, 0.20, 0.18}
	knuckleX    = [5]float64{0, 0.30, 0.10, -0.10, -0.29}
	archShare   = [5]float64{0, 0, 0, 0.5, 1} // how much of the palm arch each finger base takes
)

// New builds the hand p describes: the skinned hand of p.Mesh, or the
// procedural hand.
func New(p Params) (*Hand, error) {
	if p.Mesh != "" {
		return newFromMesh(p)
	}
	if len(p.JointNames) > 0 {
		return nil, fmt.Errorf("handmodel: joint names are for a skinned hand: give its mesh")
	}
	if !(p.Length >= 0.05 && p.Length <= 0.4) || !(p.Breadth >= 0.02 && p.Breadth <= 0.2) {
		return nil, fmt.Errorf("handmodel: hand length %v m and breadth %v m: want 0.05-0.4 and 0.02-0.2", p.Length, p.Breadth)
	}
	h := &Hand{Params: p, Limits: DefaultLimits}
	n := FingerLinks
	if p.Forearm {
		n++
	}
	h.links = make([]linkDef, n)
	h.links[Palm] = palmLink(p.Length, p.Breadth)
	h.setThumb(p.Length, p.Breadth)
	for f := 1; f < 5; f++ {
		h.setFinger(f, p.Length, p.Breadth)
	}
	if p.Forearm {
		h.links[Forearm] = forearmLink(p.Length, p.Breadth)
		h.links[Palm].parent = Forearm
	}
	if err := h.buildGeometry(); err != nil {
		return nil, err
	}
	return h, nil
}

// newFromMesh builds the hand on the skinned hand of p.Mesh, its joints
// renamed by p.JointNames.
func newFromMesh(p Params) (*Hand, error) {
	skin, err := LoadSkin(p.Mesh)
	if err != nil {
		return nil, err
	}
	if err := skin.RenameJoints(p.JointNames); err != nil {
		return nil, fmt.Errorf("handmodel: skin %s: %w", p.Mesh, err)
	}
	h, err := newSkinned(skin, p)
	if err != nil {
		return nil, fmt.Errorf("%w (skin %s)", err, p.Mesh)
	}
	return h, nil
}

// palmLink is the procedural palm of a hand of length L and breadth B:
// from the wrist to the knuckle line, narrower at the wrist.
func palmLink(L, B float64) linkDef {
	thick := 0.30 * B
	palm := linkDef{parent: -1, rots: []rot{{joint: WristYaw, axis: 2, scale: -1}, {joint: WristPitch, axis: 0, scale: -1}}}
	for _, z := range []float64{-thick / 2, thick / 2} {
		palm.hull = append(palm.hull,
			geom.Vec3{X: -0.32 * B, Z: z}, geom.Vec3{X: 0.32 * B, Z: z},
			geom.Vec3{X: 0.45 * B, Y: 0.16 * L, Z: z}, geom.Vec3{X: -0.42 * B, Y: 0.16 * L, Z: z})
		for f := 1; f < 5; f++ {
			y := segmentFractions[f][0] * L
			palm.hull = append(palm.hull, geom.Vec3{X: (knuckleX[f] + 0.09) * B, Y: y, Z: z}, geom.Vec3{X: (knuckleX[f] - 0.09) * B, Y: y, Z: z})
		}
	}
	return palm
}

// setThumb places the procedural thumb's three links: the
// carpometacarpal joint near the wrist on the radial side; at rest the
// thumb points 40° radially and is pronated 60° about its own axis so that
// flexion curls it across the palm.
func (h *Hand) setThumb(L, B float64) {
	tw := fingerWidth[0] * B / 2
	h.links[ThumbMetacarpal] = linkDef{parent: Palm, origin: geom.Vec3{X: 0.26 * B, Y: 0.07 * L, Z: -0.10 * B},
		rots: []rot{{joint: ThumbRoll, axis: 1, scale: 1}, {joint: ThumbAbduction, axis: 2, scale: -1},
			{joint: -1, axis: 2, offset: deg(-40)}, {joint: -1, axis: 1, offset: deg(60)}},
		length: segmentFractions[0][0] * L, r0: 1.25 * tw, r1: tw}
	h.links[ThumbProximal] = linkDef{parent: ThumbMetacarpal, origin: geom.Vec3{Y: segmentFractions[0][0] * L},
		rots: []rot{{joint: ThumbMCP, axis: 0, scale: -1}}, length: segmentFractions[0][1] * L, r0: tw, r1: 0.9 * tw}
	h.links[ThumbDistal] = linkDef{parent: ThumbProximal, origin: geom.Vec3{Y: segmentFractions[0][1] * L},
		rots: []rot{{joint: ThumbIP, axis: 0, scale: -1}}, length: segmentFractions[0][2] * L, r0: 0.9 * tw, r1: 0.75 * tw}
}

// setFinger places procedural finger f's (1 index to 4 little) three
// links on its knuckle; the ring and little fingers' bases ride the palm
// arch.
func (h *Hand) setFinger(f int, L, B float64) {
	base := IndexProximal + Link(3*(f-1))
	abd := IndexAbduction + Joint(4*(f-1))
	r := fingerWidth[f] * B / 2
	seg := segmentFractions[f]
	rots := []rot{{joint: abd, axis: 2, scale: -1}, {joint: abd + 1, axis: 0, scale: -1}}
	if archShare[f] > 0 {
		rots = append([]rot{{joint: PalmArch, axis: 1, scale: -archShare[f]}}, rots...)
	}
	h.links[base] = linkDef{parent: Palm, origin: geom.Vec3{X: knuckleX[f] * B, Y: seg[0] * L},
		rots: rots, length: seg[1] * L, r0: r, r1: 0.88 * r}
	h.links[base+1] = linkDef{parent: base, origin: geom.Vec3{Y: seg[1] * L},
		rots: []rot{{joint: abd + 2, axis: 0, scale: -1}}, length: seg[2] * L, r0: 0.88 * r, r1: 0.78 * r}
	h.links[base+2] = linkDef{parent: base + 1, origin: geom.Vec3{Y: seg[2] * L},
		rots: []rot{{joint: abd + 3, axis: 0, scale: -1}}, length: seg[3] * L, r0: 0.78 * r, r1: 0.65 * r}
}

// forearmLink is the procedural forearm, ending at the wrist: 1.3 hand
// lengths toward -Y, an elliptic section widening from the wrist.
func forearmLink(L, B float64) linkDef {
	fa := linkDef{parent: -1}
	for _, y := range []float64{0, -1.3 * L} {
		w := 0.35 * B
		if y != 0 {
			w = 0.42 * B
		}
		for k := range 12 {
			a := 2 * math.Pi * float64(k) / 12
			fa.hull = append(fa.hull, geom.Vec3{X: w * math.Cos(a), Y: y, Z: 0.7 * w * math.Sin(a)})
		}
	}
	return fa
}

// Rig returns a skinned hand's skin, rigged to the hand; nil for the
// procedural hand.
func (h *Hand) Rig() *SkinRig { return h.rig }

// NumLinks returns 16, or 17 with a forearm.
func (h *Hand) NumLinks() int { return len(h.links) }
