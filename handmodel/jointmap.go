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
	terms  []term
}

// term is one share: q[joint] (=|+=) gain * channel.
type term struct {
	joint Joint
	src   int  // the channel's index among the layout's sensors, or angles
	angle bool // src is a measured angle
	first bool // the joint's first share: it sets the joint, the others add
	gain  float64
}

// NewJointMap checks the layout and resolves its joint names.
func NewJointMap(l *devices.Layout) (*JointMap, error) {
	if err := l.Check(); err != nil {
		return nil, fmt.Errorf("handmodel: %w", err)
	}
	m := &JointMap{Layout: l}
	var seen [NumJoints]bool
	add := func(chans []devices.Channel, angle bool) error {
		for i, c := range chans {
			for _, s := range c.Joints {
				j, ok := JointNamed(s.Joint)
				if !ok {
					return fmt.Errorf("handmodel: layout %s: channel %s moves joint %q, which the hand does not have (it has %s)", l.Name, c.Name, s.Joint, strings.Join(jointNames[:], ", "))
				}
				m.terms = append(m.terms, term{joint: j, src: i, angle: angle, first: !seen[j], gain: s.Gain})
				seen[j] = true
			}
		}
		return nil
	}
	if err := add(l.Sensors, false); err != nil {
		return nil, err
	}
	if err := add(l.Angles, true); err != nil {
		return nil, err
	}
	return m, nil
}

// Joints sets q from the sensors' calibrated angles (radians, in the
// layout's sensor order) and the glove's measured angles (in its angle
// order).
func (m *JointMap) Joints(sensors *[devices.MaxReadings]float64, angles *[devices.MaxAngles]float64, q *Angles) {
	*q = Angles{}
	for _, t := range m.terms {
		v := sensors[t.src]
		if t.angle {
			v = angles[t.src]
		}
		v *= t.gain
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
