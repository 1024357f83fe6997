package experiments

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

// Body is a collection of posed meshes of one body, regarded, as the
// paper regards its characters, simply as triangles; and the axis its
// cylinders stand on (the paper's up), with the ground plane normal to it.
type Body struct {
	Name string
	// Axis is the cylinders' axis: world up (z) for the humanoid, the
	// wrist frame's +y (the hand's long axis, toward the fingers) for a
	// hand.
	Axis geom.Vec3
	// Threshold is the BCH's stopping radius: the paper's 1 cm for the
	// humanoid; for a hand, 1 mm, the paper's ratio of threshold to body
	// size (1 cm for 1.8 m) taken to a 19 cm hand and rounded up.
	Threshold float64
	// Poses are the posed meshes: closed surfaces (or unions of closed,
	// outward-wound surfaces), in the world frame.
	Poses [][]geom.Triangle
}

// The bodies' names.
const (
	HumanoidName = "humanoid"
	HandName     = "hand"
	SkinName     = "skin"
)

// HandMotions are the simulated glove motions the hands' poses come
// from.
var HandMotions = []sim.Motion{sim.Grasp, sim.Tap, sim.Pinch, sim.Spread}

// HumanoidBody is n poses of the humanoid at random joint angles.
func HumanoidBody(n int, r *rand.Rand) *Body {
	h := NewHumanoid()
	b := &Body{Name: HumanoidName, Axis: geom.Vec3{Z: 1}, Threshold: 0.01}
	angles := make([]float64, h.NumAngles())
	for range n {
		h.RandomAngles(r, angles)
		b.Poses = append(b.Poses, h.Pose(angles, nil))
	}
	return b
}

// HandBody is n poses of hand h at random frames of the HandMotions
// (the motions taken in turn, each frame at a random time in its first
// 30 s), played through the simulated 22-sensor glove and the shipped
// calibration, the wrist at the origin: the link hulls of the procedural
// hand, or a skinned hand's skin posed by linear blend skinning.
func HandBody(name string, h *handmodel.Hand, n int, r *rand.Rand) (*Body, error) {
	cal, err := handmodel.DefaultCalibration(22)
	if err != nil {
		return nil, fmt.Errorf("experiments: %s: %w", name, err)
	}
	b := &Body{Name: name, Axis: geom.Vec3{Y: 1}, Threshold: 0.001}
	links := make([]geom.Transform, h.NumLinks())
	var raw [layout.Slots]uint16
	var s devices.Sample
	var q handmodel.Angles
	var skin handmodel.SkinPose
	for i := range n {
		m := HandMotions[i%len(HandMotions)]
		t := time.Duration(r.Float64() * 30 * float64(time.Second))
		if err := sim.Raw(m, t, &raw); err != nil {
			return nil, fmt.Errorf("experiments: %s: %w", name, err)
		}
		layout.FromSlots(&raw, 22, &s)
		if err := cal.Angles(&s, &h.Limits, &q); err != nil {
			return nil, fmt.Errorf("experiments: %s: %w", name, err)
		}
		h.Pose(&q, geom.Identity(), links)
		var tris []geom.Triangle
		if rig := h.Rig(); rig != nil {
			if err := rig.Pose(&q, links, &skin); err != nil {
				return nil, fmt.Errorf("experiments: %s: %w", name, err)
			}
			for _, t := range rig.Skin.Tris {
				tris = append(tris, geom.Triangle{skin.Verts[t[0]], skin.Verts[t[1]], skin.Verts[t[2]]})
			}
		} else {
			for l := range h.NumLinks() {
				g := h.Geometry(handmodel.Link(l))
				x := links[l]
				for _, t := range g.Tris {
					tris = append(tris, geom.Triangle{x.Apply(g.Verts[t[0]]), x.Apply(g.Verts[t[1]]), x.Apply(g.Verts[t[2]])})
				}
			}
		}
		b.Poses = append(b.Poses, tris)
	}
	return b, nil
}

// Extent returns the lowest and highest point of tris along unit axis.
func Extent(tris []geom.Triangle, axis geom.Vec3) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, t := range tris {
		for _, p := range t {
			w := p.Dot(axis)
			lo, hi = math.Min(lo, w), math.Max(hi, w)
		}
	}
	return lo, hi
}
