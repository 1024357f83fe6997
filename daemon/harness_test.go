package daemon

import (
	"context"
	"testing"

	"github.com/rs/zerolog"

	"github.com/gloved/gloved/devices"
)

// startEmulator serves an emulated CyberGlove at link until the test ends,
// and returns once the pty is ready.
func startEmulator(tb testing.TB, link string, opts devices.EmulatorOpts, hang devices.Hangup) {
	tb.Helper()
	e, err := devices.NewEmulator(opts)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 4)
	done := make(chan error, 1)
	go func() { done <- devices.RunEmulator(ctx, e, link, hang, func(p string) { ready <- p }) }()
	tb.Cleanup(func() { cancel(); <-done })
	select {
	case <-ready:
	case err := <-done:
		tb.Fatalf("emulator: %v", err)
	}
}

// startDaemon parses text as the daemon's configuration, builds the daemon
// and runs it until ctx ends; the returned channel yields Run's result.
func startDaemon(tb testing.TB, ctx context.Context, name, text string) (*Daemon, <-chan error) {
	tb.Helper()
	cfg, err := ParseConfig(name, []byte(text))
	if err != nil {
		tb.Fatal(err)
	}
	d, err := New(cfg, zerolog.Nop())
	if err != nil {
		tb.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	return d, done
}
