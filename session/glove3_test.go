package session

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove"
	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/devices/emulator/emulatortest"
	"github.com/gloved/gloved/handmodel"
)

// TestCyberGlove3Session: a hand whose device is cyberglove3 opens an
// emulated CyberGlove III, reads its 12-bit samples through the shipped
// calibration for its sensor count, and records its bytes; the recording
// replays the same samples, parsed as a III's.
func TestCyberGlove3Session(t *testing.T) {
	for _, sensors := range []int{22, 18} {
		em := emulatortest.Start(t, emulator.Opts{Model: cyberglove.ModelIII, Sensors: sensors, Right: false, Garbage: 0.05, Seed: 4, Period3: 4 * time.Millisecond}, "", emulator.Hangup{})
		rec := filepath.Join(t.TempDir(), "iii.glove")
		g, err := OpenGlove(Spec{Device: DeviceCyberGlove3, Port: em.Path, Recording: rec})
		if err != nil {
			t.Fatal(err)
		}
		if g.Info != (devices.GloveInfo{Model: "cyberglove3", Sensors: sensors, Right: false, Rate: 90}) || g.Cal.Sensors != sensors {
			t.Fatalf("info %+v, calibration for %d sensors", g.Info, g.Cal.Sensors)
		}
		var live [][]uint16
		var s devices.Sample
		var q handmodel.Angles
		for len(live) < 80 {
			if err := g.Read(&s); err != nil {
				if devices.Transient(err) {
					continue
				}
				t.Fatal(err)
			}
			if s.Bits != devices.Bits12 {
				t.Fatalf("sample of %d bits", s.Bits)
			}
			if err := g.Cal.Angles(&s, &handmodel.DefaultLimits, &q); err != nil {
				t.Fatal(err)
			}
			live = append(live, slices.Clone(s.Sensors()))
		}
		if err := g.Close(); err != nil {
			t.Fatal(err)
		}
		emulatortest.CheckSubsequence(t, live, em.Values())

		r, err := OpenGlove(Spec{Device: DeviceReplay, Recording: rec, Speed: SpeedMax})
		if err != nil {
			t.Fatal(err)
		}
		var replayed [][]uint16
		for {
			err := r.Read(&s)
			if errors.Is(err, devices.ErrEnd) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Bits != devices.Bits12 {
				t.Fatalf("replayed sample of %d bits", s.Bits)
			}
			replayed = append(replayed, slices.Clone(s.Sensors()))
		}
		r.Close()
		if len(replayed) < len(live) || !slices.EqualFunc(replayed[:len(live)], live, slices.Equal) {
			t.Errorf("%d sensors: the replay's %d samples do not begin with the %d read live", sensors, len(replayed), len(live))
		}
	}
}
