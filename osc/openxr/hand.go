package openxr

import (
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
)

// Hand encodes one hand's frames as OpenXR joints. It is built once per
// hand from the hand model and used by the hand's frame loop alone.
type Hand struct {
	c          geom.Convention
	joints     [handmodel.NumXRJoints]joint
	addr       [handmodel.NumXRJoints]string
	active     string
	handedness string
	side       string
	tracks     osc.Tracks
	links      linkJoints // Links' table
}

// joint is where a joint rides on its link: the link's index, the
// offset's translation and rotation, and the radius.
type joint struct {
	link   int
	at     mgl64.Vec3
	turn   mgl64.Quat
	radius float64
}

// NewHand returns the encoder of hand's frames under prefix (osc.prefix)
// for the hand named name, in convention c.
func NewHand(hand *handmodel.Hand, prefix, name string, c geom.Convention) *Hand {
	e := &Hand{c: c, active: Address(prefix, name, "active"), handedness: Address(prefix, name, "handedness"), side: "left"}
	if hand.Params.Right {
		e.side = "right"
	}
	for j, p := range hand.XRJoints() {
		e.joints[j] = joint{link: int(p.Link), at: p.Offset.T.Mgl(), turn: p.Offset.Quat(), radius: p.Radius}
		e.addr[j] = Address(prefix, name, handmodel.XRJoint(j).String())
	}
	e.tracks.Reset(len(e.joints))
	e.links = newLinkJoints(hand, &e.joints)
	return e
}

// Address is the profile's address of what (a joint's name, "active" or
// "handedness") for the hand named name under prefix.
func Address(prefix, name, what string) string { return prefix + "/" + name + "/xr/" + what }

// Frame encodes f, the hand's frame at time at, with w: the bundle's
// messages, in order, active, handedness and the 26 joints. A frame that
// is not finite (osc.Frame.Finite) writes nothing, as the gloved profile
// sends nothing of it. Once its buffers have grown it allocates nothing.
func (e *Hand) Frame(w *osc.Writer, f *osc.Frame, at time.Time) {
	w.Begin(osc.Timetag(at))
	if !f.Finite() || len(f.Links) < handmodel.FingerLinks {
		return
	}
	e.tracks.Begin(f)
	w.Message(e.active)
	w.Int(1)
	w.End()
	w.Message(e.handedness)
	w.String(e.side)
	w.End()
	for j := range e.joints {
		p := &e.joints[j]
		link := &f.Links[p.link]
		pos := e.c.Point(link.P.Add(geom.QuatRotate(link.Q, p.at)))
		q := e.tracks.Next(j, e.c.Quat(geom.QuatMul(link.Q, p.turn)))
		w.Message(e.addr[j])
		w.Pose(&pos, &q)
		w.Float(e.c.Length(p.radius))
		w.End()
	}
}

// Status encodes, with w, the hand's state in a bundle of its own stamped
// now: <prefix>/<hand>/xr/active, 1 while the hand is tracked (a glove
// streaming, degraded or not, a replay playing) and 0 otherwise.
func Status(w *osc.Writer, prefix, name string, tracked bool, now time.Time) {
	w.Begin(osc.Timetag(now))
	active(w, Address(prefix, name, "active"), tracked)
}

// active writes the message at addr saying whether the hand is tracked.
func active(w *osc.Writer, addr string, tracked bool) {
	w.Message(addr)
	w.Int(flag(tracked))
	w.End()
}

func flag(b bool) int32 {
	if b {
		return 1
	}
	return 0
}
