package emulator

import (
	"errors"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/layout"
)

// Source fills the 22 sensor slots at time t since the emulator started,
// in 8-bit counts.
type Source = func(t time.Duration, slots *[layout.Slots]uint16)

// LoopSamples is a source that plays samples (of one sensor count, in time
// order) by their times, over and over, one sample period after the last.
// A CyberGlove III's samples are played in 8-bit counts, rounded (a III
// emulator widens them again).
func LoopSamples(samples []devices.Sample, period time.Duration) (Source, error) {
	if len(samples) == 0 {
		return nil, errors.New("emulator: no samples to play")
	}
	span := samples[len(samples)-1].Time + period
	return func(t time.Duration, slots *[layout.Slots]uint16) {
		t %= span
		i := 0
		for i+1 < len(samples) && samples[i+1].Time <= t {
			i++
		}
		layout.ToSlots(&samples[i], slots)
		if b := samples[i].Bits; b > devices.Bits8 {
			half := uint16(1) << (b - devices.Bits8 - 1)
			for k, v := range slots {
				slots[k] = (v + half) >> (b - devices.Bits8)
			}
		}
	}, nil
}
