package osc

import (
	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// Contact is one touching (link, object) pair of a frame.
type Contact struct {
	Link, Object  string
	Depth         float64
	Point, Normal mgl64.Vec3
}

// Near is one link within the proximity band of an object.
type Near struct {
	Link, Object string
	Distance     float64
	Point        mgl64.Vec3
}

// Pose is a link's world pose: position and unit quaternion. A stream of
// a link's poses keeps its quaternions in one hemisphere (geom.QuatTrack:
// the dot product of consecutive ones is never negative), restarting with
// W >= 0 when the sample stream restarts.
type Pose struct {
	P mgl64.Vec3
	Q mgl64.Quat
}

// PoseOf is x as a Pose (its quaternion in whichever hemisphere the
// conversion gives: a stream keeps one with geom.QuatTrack).
func PoseOf(x geom.Transform) Pose { return Pose{P: x.T.Mgl(), Q: x.Quat()} }

// Frame is what one hand publishes for one frame. The daemon fills it from
// buffers it reuses.
type Frame struct {
	// Seq counts the hand's frames built since the daemon started; Sample
	// is the glove sample's own number (devices.Sample.Seq), counting
	// every sample the device delivered since it was opened.
	Seq        int32
	Sample     uint64
	PipelineMS float64
	Joints     []float64
	Links      []Pose
	// Controls are the glove's own controls, sent when it has them.
	Controls Controls
	// Feedback is the hand's force feedback and pulse, sent when on.
	Feedback Feedback
	Contacts []Contact
	Near     []Near
	Touches  []Touch
	Self     []SelfContact
	Pinches  []Pinch
	Fists    []Fist
	// Between hands: contacts with and links near another hand's, and
	// the tests a depth limit stopped.
	Hands    []HandContact
	HandNear []HandNear
	LOD      []LOD
	Status   string // sent when not empty
	// Rate is the glove's samples a second over the last 2 s, sent
	// after Status when both are set (a glove on a serial line).
	Rate float64
}

// Controls are a glove's own inputs beside the hand: an OpenGloves
// glove's joystick, analog trigger, buttons and gestures, each read at
// the glove's full scale (devices.Control.Read).
type Controls struct {
	// On: the glove has controls. A frame of a glove without them (a
	// CyberGlove) sends no controls message.
	On bool
	// JoystickX and JoystickY are -1 to 1, 0 centred; Trigger is 0 to 1.
	JoystickX, JoystickY, Trigger float64
	// Pressed are the buttons and gestures, in ControlButtons' order.
	Pressed [len(ControlButtons)]bool
}

// Feedback is a hand's force feedback at a frame (feedback.State): each
// finger's force, thumb to little, 0 free to 1 unable to curl, and the
// amplitude (0 to 1) of a pulse that began at the frame, 0 for none.
type Feedback struct {
	On    bool // sent only when on ([feedback] enabled)
	Force [5]float64
	Pulse float64
}

// ControlButtons name the buttons and gestures of Controls.Pressed, as
// the contract's arguments do, in devices.Control's order of buttons.
var ControlButtons = [...]string{"joystick click", "trigger click", "a", "b", "grab", "pinch", "menu", "calibrate"}

// HandContact is a link of this hand touching a link of another hand:
// Depth along Normal (from the other link toward this one), Point on the
// other link's surface.
type HandContact struct {
	Other, Link, OtherLink string
	Depth                  float64
	Point, Normal          mgl64.Vec3
}

// HandNear is a link of this hand within the proximity band of a link of
// another hand.
type HandNear struct {
	Other, Link, OtherLink string
	Distance               float64
}

// LOD says the test against another hand stopped at a level of detail:
// the hands' boxes at that depth of their hierarchies overlap.
type LOD struct {
	Other string
	Level int32
}

// SelfContact is two links of the hand touching each other.
type SelfContact struct {
	A, B  string
	Depth float64
	Point mgl64.Vec3
}

// Pinch is a finger's pinch against the thumb beginning or ending.
type Pinch struct {
	Finger   string
	Begin    bool
	Distance float64
}

// Fist is the hand closing into a fist or opening from one.
type Fist struct {
	Begin    bool
	Distance float64
}

// Touch is an edge of a (link, object) contact: Begin true when it starts,
// false when it ends.
type Touch struct {
	Link, Object string
	Begin        bool
}

// AppendFrame encodes a frame for hand under prefix (e.g. "/gloved") with
// w, which must have been started with Begin. The messages, in order:
//
//	<prefix>/<hand>/frame   i seq, f pipeline ms, i contacts
//	<prefix>/<hand>/sample  i sample sequence (the low 32 bits of f.Sample)
//	<prefix>/<hand>/joints  f... joint angles (rad), handmodel.Joint order
//	<prefix>/<hand>/links   f... px py pz qx qy qz qw per link, handmodel.Link order
//	<prefix>/<hand>/controls f joystick x, f y, f trigger, i... each button 1 pressed / 0 (when f.Controls.On)
//	<prefix>/<hand>/contact s link, s object, f depth, f f f point, f f f normal (one each)
//	<prefix>/<hand>/near    s link, s object, f distance, f f f point (one each)
//	<prefix>/<hand>/touch   s link, s object, i 1 begin / 0 end (one each)
//	<prefix>/<hand>/self    s link, s link, f depth, f f f point (one each)
//	<prefix>/<hand>/pinch   s finger, i 1 begin / 0 end, f distance (one each)
//	<prefix>/<hand>/fist    i 1 begin / 0 end, f distance
//	<prefix>/<hand>/hand    s other hand, s link, s other link, f depth, f f f point, f f f normal (one each)
//	<prefix>/<hand>/handnear s other hand, s link, s other link, f distance (one each)
//	<prefix>/<hand>/lod     s other hand, i level (one per other hand the depth limit stopped at)
//	<prefix>/<hand>/status  s state (when f.Status is set)
//	<prefix>/<hand>/rate    f samples a second (with the status, when f.Rate > 0)
//
// No NaN or infinity is written: a contact or near entry holding one is
// left out (the frame's contact count counts only those sent), and a frame
// whose timing, joints or link poses hold one is not written at all (its
// Seq is missing from the stream). Each is counted in w.NonFinite.
func AppendFrame(w *Writer, addr *Addresses, f *Frame) {
	if !f.finite() {
		w.drop()
		return
	}
	appendPoses(w, addr, f)
	if f.Controls.On {
		appendControls(w, addr, &f.Controls)
	}
	appendContacts(w, addr, f)
	if f.Feedback.On {
		w.Message(addr.Feedback)
		for _, v := range f.Feedback.Force {
			w.Float(v)
		}
		w.Float(f.Feedback.Pulse)
		w.End()
	}
	for _, t := range f.Touches {
		w.Message(addr.Touch)
		w.String(t.Link)
		w.String(t.Object)
		w.Int(flag(t.Begin))
		w.End()
	}
	appendSelf(w, addr, f)
	appendHands(w, addr, f)
	if f.Status != "" {
		AppendStatus(w, addr, f.Status, f.Rate)
	}
}

// AppendStatus writes a hand's status message and, when rate is above 0
// and finite, its measured sample rate.
func AppendStatus(w *Writer, addr *Addresses, status string, rate float64) {
	w.Message(addr.Status)
	w.String(status)
	w.End()
	if rate > 0 && finite32(rate) {
		w.Message(addr.Rate)
		w.Float(rate)
		w.End()
	}
}

// appendPoses writes the frame, sample, joints and links messages.
func appendPoses(w *Writer, addr *Addresses, f *Frame) {
	contacts := int32(0)
	for i := range f.Contacts {
		if f.Contacts[i].finite() {
			contacts++
		}
	}
	w.Message(addr.Frame)
	w.Int(f.Seq)
	w.Float(f.PipelineMS)
	w.Int(contacts)
	w.End()
	w.Message(addr.Sample)
	w.Int(int32(uint32(f.Sample))) // wraps: apps compare numbers modulo 2^32
	w.End()
	w.Message(addr.Joints)
	for _, j := range f.Joints {
		w.Float(j)
	}
	w.End()
	w.Message(addr.Links)
	for i := range f.Links {
		p := &f.Links[i]
		w.Pose(&p.P, &p.Q)
	}
	w.End()
}

// appendControls writes the controls message.
func appendControls(w *Writer, addr *Addresses, c *Controls) {
	w.Message(addr.Controls)
	w.Float(c.JoystickX)
	w.Float(c.JoystickY)
	w.Float(c.Trigger)
	for _, p := range c.Pressed {
		w.Int(flag(p))
	}
	w.End()
}

// appendContacts writes the contact and near messages (the Writer drops
// and counts those holding a non-finite value).
func appendContacts(w *Writer, addr *Addresses, f *Frame) {
	for i := range f.Contacts {
		c := &f.Contacts[i]
		w.Message(addr.Contact)
		w.String(c.Link)
		w.String(c.Object)
		w.Float(c.Depth)
		w.vec(c.Point)
		w.vec(c.Normal)
		w.End()
	}
	for i := range f.Near {
		n := &f.Near[i]
		w.Message(addr.Near)
		w.String(n.Link)
		w.String(n.Object)
		w.Float(n.Distance)
		w.vec(n.Point)
		w.End()
	}
}

// appendSelf writes the self-contact, pinch and fist messages.
func appendSelf(w *Writer, addr *Addresses, f *Frame) {
	for i := range f.Self {
		c := &f.Self[i]
		w.Message(addr.Self)
		w.String(c.A)
		w.String(c.B)
		w.Float(c.Depth)
		w.vec(c.Point)
		w.End()
	}
	for _, p := range f.Pinches {
		w.Message(addr.Pinch)
		w.String(p.Finger)
		w.Int(flag(p.Begin))
		w.Float(p.Distance)
		w.End()
	}
	for _, e := range f.Fists {
		w.Message(addr.Fist)
		w.Int(flag(e.Begin))
		w.Float(e.Distance)
		w.End()
	}
}

// appendHands writes the messages between hands.
func appendHands(w *Writer, addr *Addresses, f *Frame) {
	for i := range f.Hands {
		c := &f.Hands[i]
		w.Message(addr.Hand)
		w.String(c.Other)
		w.String(c.Link)
		w.String(c.OtherLink)
		w.Float(c.Depth)
		w.vec(c.Point)
		w.vec(c.Normal)
		w.End()
	}
	for i := range f.HandNear {
		n := &f.HandNear[i]
		w.Message(addr.HandNear)
		w.String(n.Other)
		w.String(n.Link)
		w.String(n.OtherLink)
		w.Float(n.Distance)
		w.End()
	}
	for _, l := range f.LOD {
		w.Message(addr.LOD)
		w.String(l.Other)
		w.Int(l.Level)
		w.End()
	}
}

// flag is 1 for a beginning, 0 for an end.
func flag(begin bool) int32 {
	if begin {
		return 1
	}
	return 0
}

// Addresses are one hand's message addresses, built once.
type Addresses struct {
	Frame, Joints, Links, Contact, Near, Touch, Self, Pinch, Fist, Status, Rate, Wrist string
	Hand, HandNear, LOD                                                                string
	Sample, Controls, Feedback                                                         string
}

// HandAddresses returns the addresses of hand under prefix.
func HandAddresses(prefix, hand string) *Addresses {
	b := prefix + "/" + hand + "/"
	return &Addresses{Frame: b + "frame", Joints: b + "joints", Links: b + "links", Contact: b + "contact",
		Near: b + "near", Touch: b + "touch", Self: b + "self", Pinch: b + "pinch", Fist: b + "fist", Status: b + "status", Rate: b + "rate", Wrist: b + "wrist",
		Hand: b + "hand", HandNear: b + "handnear", LOD: b + "lod", Sample: b + "sample", Controls: b + "controls", Feedback: b + "feedback"}
}

// TouchTracker turns per-frame contacts into begin/end edges with
// hysteresis: a touch begins on the first frame with a contact and ends
// only after EndFrames consecutive frames without one, so a fingertip
// grazing a surface does not flicker.
type TouchTracker struct {
	EndFrames int
	nObj      int
	active    []bool
	miss      []uint16
	hit       []bool
}

// Reset sizes the tracker for nLinks x nObjects pairs, all untouched.
func (t *TouchTracker) Reset(nLinks, nObjects int) {
	if t.EndFrames <= 0 {
		t.EndFrames = 3
	}
	t.nObj = nObjects
	n := nLinks * nObjects
	t.active, t.miss, t.hit = make([]bool, n), make([]uint16, n), make([]bool, n)
}

// Update takes this frame's touching pairs (link, object indices) and
// appends the edges to out, naming links and objects by the given names.
func (t *TouchTracker) Update(touching [][2]int, linkNames, objNames []string, out []Touch) []Touch {
	clear(t.hit)
	for _, p := range touching {
		k := p[0]*t.nObj + p[1]
		t.hit[k] = true
		t.miss[k] = 0
		if !t.active[k] {
			t.active[k] = true
			out = append(out, Touch{Link: linkNames[p[0]], Object: objNames[p[1]], Begin: true})
		}
	}
	for k, a := range t.active {
		if !a || t.hit[k] {
			continue
		}
		t.miss[k]++
		if int(t.miss[k]) >= t.EndFrames {
			t.active[k] = false
			t.miss[k] = 0
			out = append(out, Touch{Link: linkNames[k/t.nObj], Object: objNames[k%t.nObj], Begin: false})
		}
	}
	return out
}
