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

// TestAHandsFirstSamplesAreNeverDropped: a glove streams from the moment
// it is opened, and the daemon opens its hands, then prepares the rest,
// before it reads them: the records of that time come in a burst, which
// the first frames dropped 7 to 11 of. Here 200 ms pass between the
// opening and the run (some 20 records waiting): the first
// startupLossless samples are handed over one by one, and none is
// dropped.
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
	time.Sleep(200 * time.Millisecond) // the glove streams; nothing reads it yet
	ctx, stop := context.WithTimeout(context.Background(), time.Second)
	defer stop()
	if err := d.Run(ctx); err != nil {
		t.Fatal(err)
	}
	h := d.hands[0]
	if n := h.Stats.Dropped.Load(); n != 0 {
		t.Errorf("%d samples dropped", n)
	}
	if f := daemontest.Frames(got.All(), "right"); f < 80 {
		t.Errorf("%d frames in the run's second, want the backlog's and the second's (over 80)", f)
	}
}
