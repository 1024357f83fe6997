package handmodel

import (
	"math"
	"testing"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/devices/opengloves"
)

// TestAPosePinsACyberGlovesSensorsByTheirSlots: on both CyberGlove
// layouts, at either resolution, a pose's targets are its own angles of
// the sensors' slots, pinned where it pins the slot.
func TestAPosePinsACyberGlovesSensorsByTheirSlots(t *testing.T) {
	for _, bits := range []uint8{devices.Bits8, devices.Bits12} {
		for _, l := range layout.Layouts(bits) {
			n := len(l.Sensors)
			for _, p := range CalPoses {
				a, pins := p.Targets(l)
				for i := range n {
					k := layout.Slot(n, i)
					if a[i] != p.Angle[k] || (pins&(1<<i) != 0) != p.Pinned(k) {
						t.Errorf("%s, %s: sensor %s: %v pinned %v", l.Name, p.Name, l.Sensors[i].Name, a[i], pins&(1<<i) != 0)
					}
				}
			}
		}
	}
}

// TestAPosePinsAnOpenGlovesGlovesChannelsByTheirJoints: an OpenGloves
// glove's per-joint curls are pinned open in the flat hand and closed in
// the fist (the MCP at 85, PIP 100, DIP 70 degrees), its splays by the
// spread fingers (the ring's and little finger's away from the middle
// finger, read through their gain of -1: 15 and 30 degrees; the middle
// finger's only straight), the thumb's by its poses; the whole-finger
// curls, the fingers' metacarpal channels, the thumb's unused fourth and
// the controls never.
func TestAPosePinsAnOpenGlovesGlovesChannelsByTheirJoints(t *testing.T) {
	l := opengloves.Layout
	at := func(pose, channel string) (float64, bool) {
		p, err := FindCalPose(pose)
		if err != nil {
			t.Fatal(err)
		}
		a, pins := p.Targets(l)
		for i, c := range l.Sensors {
			if c.Name == channel {
				return a[i] * 180 / math.Pi, pins&(1<<i) != 0
			}
		}
		t.Fatalf("no channel %s", channel)
		return 0, false
	}
	for _, tc := range []struct {
		pose, channel string
		deg           float64
	}{
		{"flat", "index_mcp", 0}, {"flat", "little_dip", 0}, {"flat", "thumb_cmc", 0}, {"flat", "ring_splay", 0},
		{"fist", "index_mcp", 85}, {"fist", "middle_pip", 100}, {"fist", "little_dip", 70},
		{"spread", "index_splay", 20}, {"spread", "middle_splay", 0}, {"spread", "ring_splay", 15}, {"spread", "little_splay", 30}, {"spread", "ring_pip", 0},
		{"thumb_across", "thumb_cmc", 60}, {"thumb_across", "thumb_mcp", 35}, {"thumb_across", "thumb_ip", 25},
		{"thumb_out", "thumb_splay", 50}, {"thumb_out", "thumb_ip", 0},
	} {
		if deg, pinned := at(tc.pose, tc.channel); !pinned || math.Abs(deg-tc.deg) > 1e-9 {
			t.Errorf("%s: %s at %v degrees, pinned %v: want %v", tc.pose, tc.channel, deg, pinned, tc.deg)
		}
	}
	for _, p := range CalPoses {
		for _, channel := range []string{"index_curl", "thumb_curl", "index_cmc", "thumb_unused", "joystick_x", "a_button"} {
			if _, pinned := at(p.Name, channel); pinned {
				t.Errorf("%s pins %s", p.Name, channel)
			}
		}
	}
	if _, pinned := at("fist", "thumb_mcp"); pinned {
		t.Error("the fist pins the thumb, which it only shows")
	}
}
