package session

import (
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/osc"
)

// controls reads a glove's own controls from its samples: the channels
// its layout says are controls (devices.Channel.Control), each read at
// the sample's full scale into the frame's osc.Controls. A glove
// without them (a CyberGlove) has none, and its frames send none.
type controls struct {
	channels []int
	roles    []devices.Control
	last     osc.Controls
}

// newControls returns the controls of a glove of layout l.
func newControls(l *devices.Layout) controls {
	ch, roles := l.Controls()
	return controls{channels: ch, roles: roles}
}

// read takes the sample's controls. It allocates nothing.
func (c *controls) read(s *devices.Sample) {
	c.last = osc.Controls{On: len(c.channels) > 0}
	for i, ch := range c.channels {
		if ch >= s.N {
			continue
		}
		v := c.roles[i].Read(s.Raw[ch], s.Bits)
		switch r := c.roles[i]; {
		case r == devices.JoystickX:
			c.last.JoystickX = v
		case r == devices.JoystickY:
			c.last.JoystickY = v
		case r == devices.Trigger:
			c.last.Trigger = v
		case r.Button():
			c.last.Pressed[r-devices.FirstButton] = v > 0
		}
	}
}
