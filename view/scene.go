package view

import (
	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/handmodel"
)

// Scene is what a browser receives first: the scene's objects, each hand's
// links (hulls in their link frames), and what the page needs to draw the
// frames that follow.
type Scene struct {
	Objects []Mesh `json:"objects"`
	Hands   []Hand `json:"hands"`
	// BudgetMS is the frame budget, drawn on the frame-time sparklines.
	BudgetMS float64 `json:"budget_ms"`
	// Proximity is the near band (m): near links are tinted by distance
	// across it.
	Proximity float64 `json:"proximity"`
	// Title names what is shown (a config, a recording, a simulation).
	Title string `json:"title"`
	// Live says frames come as they happen (else only from a Timeline).
	Live bool `json:"live"`
}

// Mesh is a named triangle mesh: x y z per vertex, three indices per
// triangle.
type Mesh struct {
	Name      string    `json:"name"`
	Positions []float32 `json:"positions"`
	Indices   []int32   `json:"indices"`
}

// Hand is one hand's links, in handmodel.Link order (the order of a
// frame's link poses), and its skin if it has one (a config's mesh =).
// A hand without a skin is drawn as the WebXR generic hand (XRHand, the
// glTF file's address on the page) with its bones on the OpenXR joints
// (XR); its hulls are a click away.
type Hand struct {
	Name   string    `json:"name"`
	Right  bool      `json:"right"`
	Links  []Mesh    `json:"links"`
	Skin   *Skin     `json:"skin,omitempty"`
	XRHand string    `json:"xr_hand,omitempty"`
	XR     []XRJoint `json:"xr,omitempty"`
	// Ghost draws the hand see-through and without a panel: a pose to
	// match (a calibration's target).
	Ghost bool `json:"ghost,omitempty"`
}

// SceneObjects splits a scene into one mesh per object, in world space.
func SceneObjects(m *env.Mesh) []Mesh {
	out := make([]Mesh, len(m.Objects))
	remap := make([]int32, len(m.Verts))
	for i := range remap {
		remap[i] = -1
	}
	// Each object's triangles from the scene's index of them, and only
	// its own vertices reset after it: linear in the scene's size (a
	// pass over every triangle and vertex per object took 20 s for
	// 16,000 objects of 608k triangles).
	var used []int32
	for o := range out {
		out[o].Name = m.Objects[o]
		used = used[:0]
		for _, i := range m.ObjectTris(o) {
			for _, v := range m.Tris[i] {
				if remap[v] < 0 {
					remap[v] = int32(len(out[o].Positions) / 3)
					used = append(used, v)
					p := m.Verts[v]
					out[o].Positions = append(out[o].Positions, float32(p.X), float32(p.Y), float32(p.Z))
				}
				out[o].Indices = append(out[o].Indices, remap[v])
			}
		}
		for _, v := range used {
			remap[v] = -1
		}
	}
	return out
}

// NewHand returns hand as the page draws it: its links (b, the hand's
// body), as meshes in their link frames, and the skin its rig drives, or,
// for a hand without one, the WebXR hand on its OpenXR joints.
func NewHand(name string, hand *handmodel.Hand, b *cab.Body) Hand {
	right := hand.Params.Right
	h := Hand{Name: name, Right: right, Links: make([]Mesh, len(b.Links)), Skin: newSkin(hand.Rig())}
	if h.Skin == nil {
		h.XRHand, h.XR = XRHandURL(right), newXRJoints(hand)
	}
	for l, link := range b.Links {
		m := &h.Links[l]
		m.Name = link.Name
		for _, v := range link.Verts {
			m.Positions = append(m.Positions, float32(v.X), float32(v.Y), float32(v.Z))
		}
		for _, t := range link.Tris {
			m.Indices = append(m.Indices, t[0], t[1], t[2])
		}
	}
	return h
}
