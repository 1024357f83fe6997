package handmodel

import (
	"fmt"
	"math"
	"strings"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/layout"
)

// CalPose is a pose a per-user calibration asks the user to hold: what to
// do, why the calibration needs it, the pose's sensor angles and which of
// them it pins (holds at a known angle). Angles are in the hand model's
// joint conventions, the same for both sides (positive flexion curls
// toward the palm, positive abduction moves toward the thumb, positive
// wrist yaw is radial deviation): a left glove whose abduction sensors
// read backwards is fitted a negative gain, not given other targets.
type CalPose struct {
	Name string
	Do   string // what the user does
	Why  string // what the pose pins, and why the calibration needs it
	// Angle is every sensor's angle in the pose, radians, by 22-sensor
	// slot; only the pinned ones are targets, the others say how the
	// pose looks (an emulated glove plays them).
	Angle [layout.Slots]float64
	Pins  uint32 // bit k: the pose pins slot k
}

// Pinned reports whether the pose holds 22-sensor slot k at a known angle.
func (p *CalPose) Pinned(k int) bool { return p.Pins&(1<<k) != 0 }

// Sensor groups by 22-sensor slot.
var (
	slotsMCP    = []int{layout.IndexMCP, layout.MiddleMCP, layout.RingMCP, layout.LittleMCP}
	slotsPIP    = []int{layout.IndexPIP, layout.MiddlePIP, layout.RingPIP, layout.LittlePIP}
	slotsDIP    = []int{layout.IndexDIP, layout.MiddleDIP, layout.RingDIP, layout.LittleDIP}
	slotsSpread = []int{layout.MiddleIndexAbduction, layout.RingMiddleAbduction, layout.LittleRingAbduction}
	slotsThumb  = []int{layout.ThumbRoll, layout.ThumbMCP, layout.ThumbIP, layout.ThumbAbduction}
	slotsWrist  = []int{layout.WristPitch, layout.WristYaw}
	slotsFlex   = join(slotsMCP, slotsPIP, slotsDIP)
)

func join(groups ...[]int) []int {
	var all []int
	for _, g := range groups {
		all = append(all, g...)
	}
	return all
}

// at sets slots to an angle in degrees.
type at struct {
	slots []int
	deg   float64
}

// calPose builds a pose from the angles it pins and those it only shows.
func calPose(name, do, why string, pins, shows []at) CalPose {
	p := CalPose{Name: name, Do: do, Why: why}
	for _, a := range shows {
		for _, k := range a.slots {
			p.Angle[k] = deg(a.deg)
		}
	}
	for _, a := range pins {
		for _, k := range a.slots {
			p.Angle[k], p.Pins = deg(a.deg), p.Pins|1<<k
		}
	}
	return p
}

func one(k int) []int { return []int{k} }

// CalPoses are the poses of a calibration session, in the order they are
// asked for. Every sensor is pinned at two or more angles far enough apart
// to fit a gain (flexion: 0 and a fist's 85-100 degrees; the abductions:
// together and spread; the thumb: alongside, out and across the palm; the
// palm arch: flat and cupped; the wrist: straight, flexed and turned), and
// at 0 in several poses, which makes the offsets the best-determined
// numbers. The targets are the round numbers of a comfortable full
// motion, inside DefaultLimits; a user who bends less than a target is
// fitted a gain that much smaller, which is what a calibration to that
// user's range wants.
var CalPoses = []CalPose{
	calPose("flat",
		"Lay the hand flat on a table, palm down, fingers straight and together, thumb alongside the index finger, forearm on the table, wrist straight.",
		"every sensor at 0: each one's offset (its reading at 0 rad)",
		[]at{{join(slotsFlex, slotsSpread, slotsThumb, slotsWrist, one(layout.PalmArch)), 0}}, nil),
	calPose("fist",
		"Make a fist, thumb wrapped over the middle of the fingers, wrist straight.",
		"finger flexion at its largest (MCP 85, PIP 100, DIP 70 degrees): the flexion sensors' gains",
		[]at{{slotsMCP, 85}, {slotsPIP, 100}, {slotsDIP, 70}, {slotsSpread, 0}, {slotsWrist, 0}},
		[]at{{one(layout.ThumbRoll), 50}, {one(layout.ThumbMCP), 40}, {one(layout.ThumbIP), 50}, {one(layout.PalmArch), 15}}),
	calPose("spread",
		"Hand flat on the table again, fingers straight and spread as wide as is comfortable; the thumb as it likes.",
		"the angles between neighbouring fingers (index-middle 20, middle-ring 15, ring-little 15 degrees): the abduction sensors' gains",
		[]at{{slotsFlex, 0}, {one(layout.MiddleIndexAbduction), 20}, {one(layout.RingMiddleAbduction), 15},
			{one(layout.LittleRingAbduction), 15}, {one(layout.PalmArch), 0}, {slotsWrist, 0}},
		[]at{{one(layout.ThumbAbduction), 30}}),
	calPose("thumb_across",
		"Fingers straight and together, reach across the palm with the thumb and touch the base of the little finger, letting the palm cup.",
		"the thumb rolled across the palm (roll 60, MCP 35, IP 25 degrees) and the palm arch (20 degrees): the thumb's roll and flexion gains, the arch's",
		[]at{{one(layout.ThumbRoll), 60}, {one(layout.ThumbMCP), 35}, {one(layout.ThumbIP), 25},
			{one(layout.PalmArch), 20}, {slotsFlex, 0}, {slotsSpread, 0}, {slotsWrist, 0}}, nil),
	calPose("thumb_out",
		"Hand flat on the table, fingers together, stretch the thumb out sideways, away from the index finger, in the plane of the palm.",
		"the thumb abducted in the palm's plane (50 degrees, no roll or flexion): the thumb abduction sensor's gain",
		[]at{{one(layout.ThumbAbduction), 50}, {one(layout.ThumbRoll), 0}, {one(layout.ThumbMCP), 0},
			{one(layout.ThumbIP), 0}, {slotsFlex, 0}, {slotsSpread, 0}, {one(layout.PalmArch), 0}, {slotsWrist, 0}}, nil),
	calPose("wrist_down",
		"Forearm on the table with the hand over its edge, bend the hand down at the wrist by about 60 degrees, fingers straight.",
		"the wrist flexed (60 degrees) and not turned: the wrist pitch sensor's gain",
		[]at{{one(layout.WristPitch), 60}, {one(layout.WristYaw), 0}}, nil),
	calPose("wrist_thumbward",
		"Hand flat on the table as in the first pose, turn it at the wrist toward the thumb side by about 20 degrees, keeping the forearm still.",
		"the wrist turned toward the thumb (radial deviation, 20 degrees) and not flexed: the wrist yaw sensor's gain",
		[]at{{one(layout.WristYaw), 20}, {one(layout.WristPitch), 0}, {slotsFlex, 0}, {slotsThumb, 0}}, nil),
}

// CalPoseNames lists the calibration poses' names: "flat, fist, ...".
func CalPoseNames() string {
	names := make([]string, len(CalPoses))
	for i := range CalPoses {
		names[i] = CalPoses[i].Name
	}
	return strings.Join(names, ", ")
}

// FindCalPose returns the calibration pose of that name.
func FindCalPose(name string) (*CalPose, error) {
	for i := range CalPoses {
		if CalPoses[i].Name == name {
			return &CalPoses[i], nil
		}
	}
	return nil, fmt.Errorf("handmodel: no calibration pose %q (have %s)", name, CalPoseNames())
}

// Joints returns the pose's joint angles as an n-sensor CyberGlove shows
// them (its layout's joint map: DIP as 2/3 of PIP on an 18-sensor glove;
// a glove of any other count sees the 22-sensor glove's, every joint its
// own) and which joints the pose pins: those that depend on pinned
// sensors only.
func (p *CalPose) Joints(n int) (q Angles, pinned [NumJoints]bool) {
	m := cyberGloveMaps[1]
	if n == 18 {
		m = cyberGloveMaps[0]
	} else {
		n = layout.Slots
	}
	var a, held [devices.MaxReadings]float64
	for i := range n {
		k := layout.Slot(n, i)
		a[i], held[i] = p.Angle[k], p.Angle[k]
		if !p.Pinned(k) {
			held[i] = math.NaN() // NaN flows into every joint that depends on it
		}
	}
	var none [devices.MaxAngles]float64
	var qh Angles
	m.Joints(&a, &none, &q)
	m.Joints(&held, &none, &qh)
	for j, v := range qh {
		pinned[j] = !math.IsNaN(v)
	}
	// The middle finger is the anchor, 0 by construction: pinned where its
	// neighbour's angle is.
	pinned[MiddleAbduction] = pinned[IndexAbduction]
	return q, pinned
}

// cyberGloveMaps are the joint maps of the 18- and 22-sensor CyberGlove,
// whose sensors the poses are written for.
var cyberGloveMaps = func() [2]*JointMap {
	var maps [2]*JointMap
	for i, l := range layout.Layouts(devices.Bits8) {
		m, err := NewJointMap(l)
		if err != nil {
			panic(err) // the shipped layouts name the hand's joints
		}
		maps[i] = m
	}
	return maps
}()

// Targets returns the angle at which the pose holds each channel of a
// glove of layout l, by channel, and which it pins (bit i: channel i).
// A CyberGlove's channels are the sensors the poses are written in: each
// has its slot's angle. Any other glove's are read from its layout: a
// channel that moves one joint is pinned where the pose pins that joint
// (Joints), at the joint's angle over the channel's gain; a channel that
// moves none (a control, a curl its per-joint channels carry) or several
// is not pinned, and keeps its fallback calibration.
func (p *CalPose) Targets(l *devices.Layout) (a [devices.MaxReadings]float64, pins uint64) {
	n := len(l.Sensors)
	if isCyberGlove(l) {
		for i := range n {
			k := layout.Slot(n, i)
			a[i] = p.Angle[k]
			if p.Pinned(k) {
				pins |= 1 << i
			}
		}
		return a, pins
	}
	q, pinned := p.Joints(n)
	for i, c := range l.Sensors {
		if len(c.Joints) != 1 || c.Joints[0].Gain == 0 {
			continue
		}
		j, ok := JointNamed(c.Joints[0].Joint)
		if !ok || !pinned[j] {
			continue
		}
		a[i], pins = q[j]/c.Joints[0].Gain, pins|1<<i
	}
	return a, pins
}

// isCyberGlove reports whether l is one of the CyberGlove's layouts.
func isCyberGlove(l *devices.Layout) bool {
	for _, bits := range []uint8{devices.Bits8, devices.Bits12} {
		if c, err := layout.For(len(l.Sensors), bits); err == nil && c.Name == l.Name {
			return true
		}
	}
	return false
}
