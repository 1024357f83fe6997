package daemon

import (
	"context"
	"errors"
	"io"
	"os"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"

	"github.com/gloved/gloved/configs"
)

// LoadConfigOrDemo reads the config file at path, or with no path the
// built-in demo configuration (configs/demo.toml).
func LoadConfigOrDemo(path string) (*Config, error) {
	if path != "" {
		return LoadConfig(path)
	}
	text, err := configs.Files.ReadFile("demo.toml")
	if err != nil {
		return nil, err
	}
	c, err := ParseConfig("built-in configs/demo.toml", text)
	if err != nil {
		return nil, err
	}
	c.Path = ""
	return c, nil
}

// NewLogger writes human console lines on a terminal and JSON otherwise
// (under systemd the journal takes JSON), at the config's level.
func NewLogger(c *Config, w io.Writer) zerolog.Logger {
	level, _ := zerolog.ParseLevel(c.Log.Level)
	console := c.Log.Format == "console"
	if c.Log.Format == "auto" {
		f, ok := w.(*os.File)
		console = ok && isatty.IsTerminal(f.Fd()) && os.Getenv("JOURNAL_STREAM") == ""
	}
	if console {
		w = zerolog.ConsoleWriter{Out: w, TimeFormat: "15:04:05.000"}
	}
	return zerolog.New(w).Level(level).With().Timestamp().Logger()
}

// Service runs the daemon as `gloved run` does: on the config at Path (or
// the demo), logging to Log, rebuilt on each signal from Reload.
type Service struct {
	Path   string
	Log    io.Writer
	Reload <-chan os.Signal
	// Tick, if set, is called every second with the running daemon.
	Tick func(*Daemon)
}

// Run serves until ctx ends or the daemon fails. A reload whose config
// does not parse is logged and the running daemon kept.
func (s *Service) Run(ctx context.Context) error {
	cfg, err := LoadConfigOrDemo(s.Path)
	if err != nil {
		return err
	}
	for {
		log := NewLogger(cfg, s.Log)
		d, err := New(cfg, log)
		if err != nil {
			return err
		}
		next, err := s.serve(ctx, d, log)
		if next == nil || ctx.Err() != nil {
			if errors.Is(err, context.Canceled) {
				err = nil
			}
			return err
		}
		cfg = next
	}
}

// serve runs d until it ends (its error) or a reload asks for a new config.
func (s *Service) serve(ctx context.Context, d *Daemon, log zerolog.Logger) (*Config, error) {
	rctx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- d.Run(rctx) }()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	var next *Config
	for {
		select {
		case err := <-done:
			return next, err
		case <-s.Reload:
			c, err := LoadConfigOrDemo(s.Path)
			if err != nil {
				log.Error().Err(err).Msg("SIGHUP: config not reloaded")
				continue
			}
			log.Info().Msg("SIGHUP: reloading the config")
			next = c
			stop()
		case <-tick.C:
			if s.Tick != nil {
				s.Tick(d)
			}
		}
	}
}
