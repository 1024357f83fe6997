package tracker

import (
	"bytes"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/openxr"
)

// maxJointAngle bounds a joint angle a message may carry, in radians:
// beyond a turn is no pose (the hand model's limits then clamp it).
const maxJointAngle = 2 * math.Pi

// maxRadius bounds an OpenXR joint's radius, in metres (read, not used).
const maxRadius = 1.0

// oscDecoder reads gloved's own messages for one hand, as another
// gloved (or an app speaking its contract) sends them: the joint angles
// (<prefix>/<hand>/joints, handmodel.Joint order, radians), or the 26
// OpenXR joints of the openxr profile (<prefix>/<hand>/xr/<joint>, in
// the coordinates it was set to send), turned back into the hand model's links by the
// profile's own table (openxr.Hand.Links) and into joint angles by the
// hand model. An OpenXR joint keeps its last pose until it comes again.
type oscDecoder struct {
	joints, xr, active []byte
	back               geom.Convention // from the sender's coordinates to gloved's
	enc                *openxr.Hand
	un                 *handmodel.Unposer
	f                  *devices.Faults

	angles   handmodel.Angles
	gotJoint bool             // a joints message came in this datagram
	posed    handmodel.Angles // the last joints message that posed the hand
	byXR     bool             // or its OpenXR joints did, their links in rel
	xrq      [handmodel.NumXRJoints]mgl64.Quat
	gotXR    [handmodel.NumXRJoints]bool
	freshXR  bool                        // an OpenXR joint came in this datagram
	sinceXR  [handmodel.NumXRJoints]bool // the OpenXR joints come since the last pose
	lostSaid bool

	rel  [handmodel.MaxLinks]mgl64.Mat3
	have [handmodel.MaxLinks]bool
}

// newOSC returns the decoder of the hand named name under prefix, its
// OpenXR joints read on the procedural hand p: the palm joint's axes
// follow the hand's proportions (its metacarpal's slant), so the hand is
// the size the config gives it.
func newOSC(prefix, name string, p handmodel.Params, c geom.Convention) (*oscDecoder, error) {
	h, err := handmodel.New(p)
	if err != nil {
		return nil, err
	}
	a := osc.HandAddresses(prefix, name)
	return &oscDecoder{joints: []byte(a.Joints), xr: []byte(openxr.Address(prefix, name, "")), active: []byte(openxr.Address(prefix, name, "active")),
		back: c.Inverse(), enc: openxr.NewHand(h, prefix, name, c), un: handmodel.NewUnposer(h)}, nil
}

func (d *oscDecoder) begin(f *devices.Faults) {
	d.f, d.gotJoint, d.freshXR, d.lostSaid = f, false, false, false
}
func (d *oscDecoder) lost() bool { return d.lostSaid }

// message reads the hand's joints, its OpenXR joints and its OpenXR
// active flag; anything else (the other hand's, gloved's other messages)
// is not this hand's.
func (d *oscDecoder) message(m *message) {
	switch {
	case bytes.Equal(m.addr, d.joints):
		a := m.arguments()
		var q handmodel.Angles
		for j := range q {
			q[j] = a.float()
		}
		if a.bad || a.left() != 0 {
			d.f.BadFrames++
			return
		}
		for _, v := range q {
			if !(math.Abs(v) <= maxJointAngle) {
				d.f.OutOfRange++
				d.f.BadFrames++
				return
			}
		}
		d.angles, d.gotJoint = q, true
	case bytes.Equal(m.addr, d.active):
		a := m.arguments()
		if v := a.int(); !a.bad && a.left() == 0 && v == 0 {
			d.lostSaid = true
		}
	case bytes.HasPrefix(m.addr, d.xr):
		j := openxr.Joint(m.addr[len(d.xr):])
		if j < 0 {
			return
		}
		a := m.arguments()
		var radius float64
		if q, ok := readPose(&a, d.back, &radius, d.f); ok {
			if r := d.back.Length(radius); !(r >= 0 && r <= maxRadius) {
				d.f.OutOfRange++
				d.f.BadFrames++
				return
			}
			d.xrq[j], d.gotXR[j], d.sinceXR[j], d.freshXR = q, true, true, true
		}
	}
}

// end poses the hand: from the joint angles if they came, else from the
// OpenXR joints once a frame of them is whole (their links, turned into
// angles by pose). It keeps the pose: a later datagram's joints, a
// frame's first half or one found malformed, do not change it.
func (d *oscDecoder) end() bool {
	switch {
	case d.gotJoint:
		d.posed, d.byXR = d.angles, false
	case d.freshXR && d.wholeXR():
		d.enc.Links(&d.xrq, &d.gotXR, &d.rel, &d.have)
		d.sinceXR = [handmodel.NumXRJoints]bool{}
		d.byXR = true
	default:
		return false
	}
	return true
}

func (d *oscDecoder) pose(q *handmodel.Angles) {
	if d.byXR {
		d.un.Unpose(&d.rel, &d.have, q)
		return
	}
	*q = d.posed
}

// wholeXR says whether the OpenXR joints come since the last pose are a
// frame: the last joint in OpenXR's order (the little finger's tip, which
// ends a frame sent in that order) came, or every joint ever received
// came again. The openxr profile splits a frame's 26 joints over more
// than one datagram: posing at each would mix two frames' joints.
func (d *oscDecoder) wholeXR() bool {
	if d.sinceXR[handmodel.NumXRJoints-1] {
		return true
	}
	for j, got := range d.gotXR {
		if got && !d.sinceXR[j] {
			return false
		}
	}
	return true
}
