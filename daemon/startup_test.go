package daemon

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/gloved/gloved/daemon/daemontest"
	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/devices/emulator/emulatortest"
)

// TestAHandsFirstSamplesAreNeverDropped: the daemon opens a glove in
// the hand's reader, then prepares the hand's pipeline before the first
// read. A CyberGlove started streaming at its opening, and the records of
// that time came in a burst, which the first frames, slower than the
// rest, dropped 7 to 11 of (26-30 on a 67k-triangle scene). Its stream
// now starts at the first read, and the first startupLossless samples of
// any glove are handed over one by one: none is dropped.
func TestAHandsFirstSamplesAreNeverDropped(t *testing.T) {
	link := filepath.Join(t.TempDir(), "cyberglove")
	emulatortest.Start(t, emulator.Opts{Sensors: 22, Right: true}, link, emulator.Hangup{})
	rx, got := daemontest.Listen(t)
	cfg, err := ParseConfig("startup.toml", []byte(hand("right", "cyberglove", quoted("port", link))+sections{scene: graspScene, target: rx.LocalAddr().String()}.String()))
	if err != nil {
		t.Fatal(err)
	}
	d, err := New(cfg, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	// Stopped after 20 frames, within the first startupLossless samples:
	// while those are handed over the reader waits for each to be taken,
	// so it can be no more than one ahead. (Later, a sample the frame loop
	// has not taken when the next comes is dropped, as it should be, on a
	// machine loaded enough.)
	ctx, stop := context.WithTimeout(context.Background(), 20*time.Second)
	defer stop()
	go func() {
		for ctx.Err() == nil && len(d.hands) > 0 && d.hands[0].Stats.Frames.Load() < 20 {
			time.Sleep(5 * time.Millisecond)
		}
		stop()
	}()
	if err := d.Run(ctx); err != nil {
		t.Fatal(err)
	}
	h := d.hands[0]
	if f := h.Stats.Frames.Load(); f < 20 {
		t.Fatalf("%d frames in 20 s: the glove did not stream", f)
	}
	if n := h.Stats.Dropped.Load(); n != 0 {
		t.Errorf("%d of the first samples dropped", n)
	}
	if f := daemontest.Frames(got.All(), "right"); f == 0 {
		t.Error("no frame went out")
	}
}
