package handmodel

import (
	"fmt"
	"strings"

	"github.com/gloved/gloved/devices"
)

// JointMap turns a glove's channels into the hand's joint angles as its
// layout says (devices.Layout: each channel's shares of joints, by name):
// each joint is the sum of its shares, in the order of the layout's
// channels, and a joint no channel moves is 0. It is built once per
// layout; Joints allocates nothing.
type JointMap struct {
	Layout *devices.Layout
	terms  []term // the sensors' shares, then the measured angles'
	split  int    // terms[:split] are the sensors'
}

// term is one share: q[joint] (=|+=) gain * channel.
type term struct {
	gain  float64
	joint int32
	src   int16 // the channel's index among the layout's sensors, or angles
	first bool  // the joint's first share: it sets the joint, the others add
}

// NewJointMap checks the layout and resolves its joint names.
func NewJointMap(l *devices.Layout) (*JointMap, error) {
	if err := l.Check(); err != nil {
		return nil, fmt.Errorf("handmodel: %w", err)
	}
	m := &JointMap{Layout: l}
	var seen [NumJoints]bool
	add := func(chans []devices.Channel) error {
		for i, c := range chans {
			for _, s := range c.Joints {
				j, ok := JointNamed(s.Joint)
				if !ok {
					return fmt.Errorf("handmodel: layout %s: channel %s moves joint %q, which the hand does not have (it has %s)", l.Name, c.Name, s.Joint, strings.Join(jointNames[:], ", "))
				}
				m.terms = append(m.terms, term{joint: int32(j), src: int16(i), first: !seen[j], gain: s.Gain})
				seen[j] = true
			}
		}
		return nil
	}
	if err := add(l.Sensors); err != nil {
		return nil, err
	}
	m.split = len(m.terms)
	if err := add(l.Angles); err != nil {
		return nil, err
	}
	return m, nil
}

// Joints sets q from the sensors' calibrated angles (radians, in the
// layout's sensor order) and the glove's measured angles (in its angle
// order).
func (m *JointMap) Joints(sensors *[devices.MaxReadings]float64, angles *[devices.MaxAngles]float64, q *Angles) {
	*q = Angles{}
	apply(m.terms[:m.split], sensors[:], q)
	apply(m.terms[m.split:], angles[:], q)
}

// apply adds the terms' shares of the channels in to q.
func apply(terms []term, in []float64, q *Angles) {
	for _, t := range terms {
		v := t.gain * in[t.src]
		if t.first {
			q[t.joint] = v
		} else {
			q[t.joint] += v
		}
	}
}

// JointNamed returns the joint of that name ("index_mcp").
func JointNamed(name string) (Joint, bool) {
	for j, n := range jointNames {
		if n == name {
			return Joint(j), true
		}
	}
	return 0, false
}
