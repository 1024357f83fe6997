package daemon

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/recording"
	"github.com/gloved/gloved/devices/replay"
)

// startDaemon parses text as the daemon's configuration, builds the
// daemon and runs it for at most within (0: until stop or the test's
// end); done yields Run's result.
func startDaemon(tb testing.TB, within time.Duration, name, text string) (d *Daemon, done <-chan error, stop context.CancelFunc) {
	tb.Helper()
	cfg, err := ParseConfig(name, []byte(text))
	if err != nil {
		tb.Fatal(err)
	}
	if d, err = New(cfg, zerolog.Nop()); err != nil {
		tb.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	if within > 0 {
		ctx, stop = context.WithTimeout(context.Background(), within)
	}
	tb.Cleanup(stop)
	result := make(chan error, 1)
	go func() { result <- d.Run(ctx) }()
	return d, result, stop
}

// recorded returns how many samples the recording at path holds, and
// its header; one that does not open, or ends with a warning, fails tb.
func recorded(tb testing.TB, path string) (int, recording.Header) {
	tb.Helper()
	r, err := replay.Open(path, false)
	if err != nil {
		tb.Fatal(err)
	}
	defer r.Close()
	n := 0
	var s devices.Sample
	for r.Read(&s) == nil {
		n++
	}
	if r.Warning() != nil {
		tb.Errorf("%s: %v", path, r.Warning())
	}
	return n, r.Header()
}

// writeConfig writes text to path.
func writeConfig(tb testing.TB, path, text string) {
	tb.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		tb.Fatal(err)
	}
}
