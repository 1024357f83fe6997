package selfcontact

import (
	"fmt"
	"math"

	"github.com/gloved/gloved/chains"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

// fingerLinks are each finger's links from the palm out, thumb first.
var fingerLinks = [5][3]handmodel.Link{
	{handmodel.ThumbMetacarpal, handmodel.ThumbProximal, handmodel.ThumbDistal},
	{handmodel.IndexProximal, handmodel.IndexMiddle, handmodel.IndexDistal},
	{handmodel.MiddleProximal, handmodel.MiddleMiddle, handmodel.MiddleDistal},
	{handmodel.RingProximal, handmodel.RingMiddle, handmodel.RingDistal},
	{handmodel.LittleProximal, handmodel.LittleMiddle, handmodel.LittleDistal},
}

// fingerJoints are the WebXR joints along each finger's axis, from its
// base joint to its tip.
var fingerJoints = [5][4]string{
	{"thumb-metacarpal", "thumb-phalanx-proximal", "thumb-phalanx-distal", "thumb-tip"},
	webxrFinger("index"), webxrFinger("middle"), webxrFinger("ring"), webxrFinger("pinky"),
}

func webxrFinger(f string) [4]string {
	p := f + "-finger-phalanx-"
	return [4]string{p + "proximal", p + "intermediate", p + "distal", f + "-finger-tip"}
}

// palmRegion indexes the palm among the regions, after the five fingers.
const palmRegion = 5

// body is the hand's surface for the spheres: its mesh at rest, the six
// regions the disk sweeps, and how to place its vertices each frame.
type body struct {
	mesh    chains.Mesh
	regions []chains.Region
	poser   poser
}

// poser places the body's triangles' centroids for a frame's angles and
// link poses.
type poser interface {
	chains.Poser
	// ready prepares the triangles the spheres follow (the set's
	// PivotTris).
	ready(tris []int32)
	set(q *handmodel.Angles, links []geom.Transform) error
}

// newBody reads the hand's surface: the skin of a skinned hand, else the
// union of the procedural links' hulls.
func newBody(h *handmodel.Hand) (*body, error) {
	if h.Rig() != nil {
		return skinBody(h)
	}
	return rigidBody(h), nil
}

// rigidBody is the procedural hand's link hulls at rest, each triangle
// riding on its link.
func rigidBody(h *handmodel.Hand) *body {
	var zero handmodel.Angles
	links := make([]geom.Transform, h.NumLinks())
	h.Pose(&zero, geom.Identity(), links)
	p := &rigidPoser{}
	for l := range handmodel.Link(handmodel.FingerLinks) {
		p.rest = append(p.rest, links[l].Inverse())
	}
	b := &body{mesh: chains.Mesh{Union: true}, poser: p}
	for l := range handmodel.Link(handmodel.FingerLinks) {
		g := h.Geometry(l)
		base := int32(len(b.mesh.Verts))
		for _, v := range g.Verts {
			b.mesh.Verts = append(b.mesh.Verts, links[l].Apply(v))
		}
		for _, t := range g.Tris {
			b.mesh.Tris = append(b.mesh.Tris, [3]int32{t[0] + base, t[1] + base, t[2] + base})
			p.link = append(p.link, l)
			p.centroid = append(p.centroid, g.Verts[t[0]].Add(g.Verts[t[1]]).Add(g.Verts[t[2]]).Mul(1.0/3))
		}
	}
	triLink := p.link
	for f, fl := range fingerLinks {
		tip := 0.0
		for _, v := range h.Geometry(fl[2]).Verts {
			tip = max(tip, v.Y)
		}
		axis := []geom.Vec3{links[fl[0]].T, links[fl[1]].T, links[fl[2]].T, links[fl[2]].Apply(geom.Vec3{Y: tip})}
		b.regions = append(b.regions, fingerRegion(f, triLink, axis))
	}
	b.regions = append(b.regions, palm(triLink, links[handmodel.Palm].T, links[handmodel.MiddleProximal].T, geom.Col(&links[handmodel.Palm].R, 0)))
	return b
}

// fingerRegion is finger f's triangles (by their links) and axis.
func fingerRegion(f int, triLink []handmodel.Link, axis []geom.Vec3) chains.Region {
	r := chains.Region{Name: fingerNames[f], Axis: axis}
	for _, l := range fingerLinks[f] {
		r.Links = append(r.Links, int32(l))
	}
	for t, l := range triLink {
		if l == fingerLinks[f][0] || l == fingerLinks[f][1] || l == fingerLinks[f][2] {
			r.Tris = append(r.Tris, int32(t))
		}
	}
	return r
}

// palm is the palm's region: its triangles, swept from the wrist to the
// middle knuckle, two spheres a level across the hand.
func palm(triLink []handmodel.Link, wrist, knuckle, across geom.Vec3) chains.Region {
	r := chains.Region{Name: "palm", Axis: []geom.Vec3{wrist, knuckle}, Links: []int32{int32(handmodel.Palm)}, Wide: true, Across: across}
	for t, l := range triLink {
		if l == handmodel.Palm {
			r.Tris = append(r.Tris, int32(t))
		}
	}
	return r
}

var fingerNames = [5]string{"thumb", "index", "middle", "ring", "little"}

// rigidPoser places a procedural hand's triangles on their links: a
// triangle lies on one link, its centroid fixed in the link's frame.
type rigidPoser struct {
	link     []handmodel.Link // each triangle's
	centroid []geom.Vec3      // each triangle's, in its link's frame
	rest     []geom.Transform // each link's inverse pose at rest
	links    []geom.Transform
	motion   [handmodel.FingerLinks]geom.Transform
}

func (p *rigidPoser) ready([]int32) {}

func (p *rigidPoser) set(_ *handmodel.Angles, links []geom.Transform) error {
	p.links = links
	for l := range p.motion {
		p.motion[l] = links[l].Mul(p.rest[l])
	}
	return nil
}

func (p *rigidPoser) Centroid(t int32) geom.Vec3 { return p.links[p.link[t]].Apply(p.centroid[t]) }

func (p *rigidPoser) TriLink(t int32) int32 { return int32(p.link[t]) }

func (p *rigidPoser) Motion(l int32) geom.Transform { return p.motion[l] }

// skinBody is a skinned hand's skin at rest, its triangles given to the
// link most of their vertices ride on.
func skinBody(h *handmodel.Hand) (*body, error) {
	rig := h.Rig()
	skin := rig.Skin
	var rest handmodel.SkinPose
	if err := skin.Pose(skin.Rest, &rest); err != nil {
		return nil, err
	}
	b := &body{mesh: chains.Mesh{Verts: rest.Verts, Tris: skin.Tris}, poser: &skinPoser{rig: rig}}
	triLink := make([]handmodel.Link, len(skin.Tris))
	for t, tr := range skin.Tris {
		a, bb, c := rig.VertexLink(tr[0]), rig.VertexLink(tr[1]), rig.VertexLink(tr[2])
		triLink[t] = a
		if bb == c {
			triLink[t] = bb
		}
	}
	at := func(name string) (geom.Vec3, error) {
		p, ok := rig.JointAt(name)
		if !ok {
			return p, fmt.Errorf("selfcontact: the skin has no joint %q", name)
		}
		return p, nil
	}
	for f := range fingerJoints {
		var axis []geom.Vec3
		for _, name := range fingerJoints[f] {
			p, err := at(name)
			if err != nil {
				return nil, err
			}
			axis = append(axis, p)
		}
		b.regions = append(b.regions, fingerRegion(f, triLink, axis))
	}
	wrist, err := at("wrist")
	if err != nil {
		return nil, err
	}
	knuckle := b.regions[2].Axis[0]
	across := b.regions[4].Axis[0].Sub(b.regions[1].Axis[0])
	if across.Len() == 0 || math.IsNaN(across.Len()) {
		return nil, fmt.Errorf("selfcontact: the skin's index and little knuckles coincide")
	}
	b.regions = append(b.regions, palm(triLink, wrist, knuckle, across.Normalize()))
	return b, nil
}

// skinPoser places a skinned hand's triangles' centroids by linear blend
// skinning: each pivot's centroid compiled to one move per joint its
// vertices ride on (handmodel.Blend).
type skinPoser struct {
	rig    *handmodel.SkinRig
	pose   handmodel.SkinPose
	blends []handmodel.Blend // by triangle: the pivots' only
	// The frame's angles and links, its joints posed only once a centroid
	// is asked for: a frame that needs no sphere poses no joint.
	q     *handmodel.Angles
	links []geom.Transform
	posed bool
}

func (p *skinPoser) ready(tris []int32) {
	skin := p.rig.Skin
	p.blends = make([]handmodel.Blend, len(skin.Tris))
	third := []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}
	for _, t := range tris {
		p.blends[t] = skin.Blend(skin.Tris[t][:], third)
	}
}

func (p *skinPoser) set(q *handmodel.Angles, links []geom.Transform) error {
	p.q, p.links, p.posed = q, links, false
	return nil
}

func (p *skinPoser) Centroid(t int32) geom.Vec3 {
	if !p.posed {
		// The rig's joints and the skin agree in number (NewSkinRig):
		// SetJoints cannot fail here.
		_ = p.rig.Skin.SetJoints(p.rig.Joints(p.q, p.links), &p.pose)
		p.posed = true
	}
	return p.rig.Skin.Place(&p.pose, &p.blends[t])
}
