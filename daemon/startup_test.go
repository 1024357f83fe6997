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
	ctx, stop := context.WithTimeout(context.Background(), time.Second)
	defer stop()
	if err := d.Run(ctx); err != nil {
		t.Fatal(err)
	}
	h := d.hands[0]
	if n := h.Stats.Dropped.Load(); n != 0 {
		t.Errorf("%d samples dropped", n)
	}
	if f := daemontest.Frames(got.All(), "right"); f < 20 {
		t.Errorf("%d frames in the run's second: the glove did not stream", f)
	}
}
