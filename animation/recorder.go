package animation

import (
	"errors"
	"fmt"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

// Frame is one frame of a session as the pipeline leaves it (see
// session.Pipeline: Poses, Angles, Contacts).
type Frame struct {
	Time     time.Duration     // the sample's stamp
	Links    []geom.Transform  // each link's frame to world
	Angles   *handmodel.Angles // the joint angles; a skinned hand's joints are posed from them
	Contacts []contact.Contact
}

// Recorder collects a session frame by frame and writes it as one
// animated glTF file (see the package comment for what the file holds).
// It keeps each frame's keys in single precision, about 0.5 KB a frame
// for the procedural hand, 1.2 KB for the skinned one, and 40 bytes per
// contact marker: memory and file grow linearly with the frames.
type Recorder struct {
	hand  *handmodel.Hand
	scene *env.Mesh
	rig   *handmodel.SkinRig // nil: the procedural hand

	times  []time.Duration
	links  []track
	joints []track // a skinned hand's joints, each in its parent's frame
	marks  markers
	spent  bool
}

// ErrNoFrames is the error of writing a session that recorded none.
var ErrNoFrames = errors.New("animation: no frames recorded")

// errSpent is the error of using a Recorder after it was written.
var errSpent = errors.New("animation: the recording was already written")

// NewRecorder starts recording hand (whose skin, if it is a skinned hand,
// is recorded too) against scene.
func NewRecorder(hand *handmodel.Hand, scene *env.Mesh) *Recorder {
	r := &Recorder{hand: hand, scene: scene, rig: hand.Rig(), links: make([]track, hand.NumLinks())}
	if r.rig != nil {
		r.joints = make([]track, len(r.rig.Skin.Joints))
	}
	return r
}

// Add records one frame. Frames are recorded in the order added; their
// stamps need not rise (the package comment says how they are keyed).
func (r *Recorder) Add(f Frame) error {
	if r.spent {
		return errSpent
	}
	n := len(r.times)
	if len(f.Links) != len(r.links) {
		return fmt.Errorf("animation: frame %d: %d link transforms for %d links", n, len(f.Links), len(r.links))
	}
	for l, x := range f.Links {
		if !finite(x) {
			return fmt.Errorf("animation: frame %d: link %s is not posed (%v)", n, handmodel.Link(l), x.T)
		}
	}
	if r.rig != nil && f.Angles == nil {
		return fmt.Errorf("animation: frame %d: a skinned hand needs the joint angles", n)
	}
	r.times = append(r.times, f.Time)
	for l, x := range f.Links {
		r.links[l].add(x.T.Mgl(), x.Quat(), mgl64.Vec3{})
	}
	if r.rig != nil {
		r.addJoints(f.Angles, f.Links)
	}
	r.marks.add(n, f.Contacts)
	return nil
}

// addJoints keys the skin's joints: the wrist in world space, every other
// joint in its parent's frame, as the joint hierarchy composes them.
func (r *Recorder) addJoints(q *handmodel.Angles, links []geom.Transform) {
	world := r.rig.Joints(q, links)
	for j := range r.joints {
		m := world[j]
		if p := r.rig.Parent(j); p >= 0 {
			m = world[p].Inv().Mul4(m)
		}
		r.joints[j].add(m.Col(3).Vec3(), rotation(m.Mat3()), mgl64.Vec3{})
	}
}

// Frames returns how many frames were recorded.
func (r *Recorder) Frames() int { return len(r.times) }

// Markers returns how many contact markers the file has: the most
// contacts of any frame.
func (r *Recorder) Markers() int { return len(r.marks.tracks) }

// Joints returns how many skin joints the file animates (0 for the
// procedural hand).
func (r *Recorder) Joints() int { return len(r.joints) }

// finite reports whether x's entries are all finite.
func finite(x geom.Transform) bool {
	for _, v := range x.R {
		if !geom.Finite(v) {
			return false
		}
	}
	return x.T.Finite()
}
