package daemon

import (
	"context"
	"testing"

	"github.com/rs/zerolog"
)

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
