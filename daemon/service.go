package daemon

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	sd "github.com/coreos/go-systemd/v22/daemon"
	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"
	"golang.org/x/sys/unix"

	"github.com/gloved/gloved/configs"
	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/session"
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

// LogTimeFormat is how the log writes a line's time, to the millisecond
// (zerolog's default is to the second: a frame overrun and the status
// change it caused could not be told apart or ordered).
const LogTimeFormat = "2006-01-02T15:04:05.000Z07:00"

// zerolog's time format is global, for the process: every logger gloved
// makes is NewLogger's, so it is set once, here.
func init() { zerolog.TimeFieldFormat = LogTimeFormat }

// NewLogger writes human console lines on a terminal and JSON otherwise
// (under systemd the journal takes JSON), at the config's level.
func NewLogger(c *Config, w io.Writer) zerolog.Logger {
	level, _ := zerolog.ParseLevel(c.Log.Level)
	f, ok := w.(*os.File)
	terminal := ok && isatty.IsTerminal(f.Fd())
	console := c.Log.Format == "console"
	if c.Log.Format == "auto" {
		console = terminal && os.Getenv("JOURNAL_STREAM") == ""
	}
	if console {
		// Colours only on a terminal: a file or a pipe gets plain text.
		w = zerolog.ConsoleWriter{Out: w, TimeFormat: "15:04:05.000", NoColor: !terminal}
	}
	return zerolog.New(w).Level(level).With().Timestamp().Logger()
}

// logWarnings logs the config's warnings, one line each.
func (c *Config) logWarnings(log zerolog.Logger) {
	for _, w := range c.Warnings {
		log.Warn().Msg(w)
	}
}

// Service runs the daemon as `gloved run` does: on the config at Path (or
// the demo), logging to Log, rebuilt on each signal from Reload.
type Service struct {
	Path   string
	Log    io.Writer
	Reload <-chan os.Signal
	// Tick, if set, is called every second with the running daemon.
	Tick func(*Daemon)
	// View, if set, overrides the config's view.listen (gloved run
	// --view), at start and at every reload; "off" turns the page off.
	View string
	// beforeReplace, if set, runs in a reload once the running daemon
	// has stopped and before the next is built, with what the reload
	// carries: tests make a reload slow, and look at what it prepared.
	beforeReplace func(*carried)
}

// Load reads the config (or the demo's) with the service's overrides, as
// Run does at start and at every reload: gloved run --check loads through
// it, so that it refuses the --view the daemon would.
func (s *Service) Load() (*Config, error) {
	cfg, err := LoadConfigOrDemo(s.Path)
	if err == nil && s.Path == "" && s.View == "" {
		cfg.View.optional = true
	}
	if err == nil && s.View != "" {
		cfg.View.Listen = s.View
		if s.View == "off" {
			cfg.View.Listen = ""
		}
		if err = cmp.Or(cfg.View.check(), cfg.checkListeners()); err != nil {
			err = fmt.Errorf("%w: --view: %v", ErrConfig, err)
		}
	}
	return cfg, err
}

// Run serves until ctx ends or the daemon fails. A reload validates the
// new config first (Config.Validate) and keeps the running daemon on any
// failure; a valid one replaces it, keeping the OSC socket and its
// subscribers (when the listen address and prefix are unchanged) and the
// wrist poses set over OSC. Recordings are closed whole and never
// truncated (recording.Create keeps an earlier file). ctx's end stops it
// at once also while it loads a scene, at the start or in a reload: it
// logs that it was interrupted while loading the scene and returns nil.
// SIGHUPs that come while a reload loads wait for it, taken as one: the
// next reload reads the config as it is then.
func (s *Service) Run(ctx context.Context) error {
	cfg, scene, shared, err := s.prepare(ctx)
	if ierr := Interrupted(ctx); ierr != nil && cfg != nil {
		log := NewLogger(cfg, s.Log)
		log.Warn().Msg(ierr.Error() + ": gloved stopped before it ran")
		return nil
	}
	if err == nil {
		if err = cfg.canStart(); err != nil {
			err = cfg.Invalid(err)
		}
	}
	if err != nil {
		return err
	}
	log := NewLogger(cfg, s.Log)
	cfg.logWarnings(log)
	d, err := newDaemon(ctx, cfg, log, time.Now(), &carried{scene: scene, shared: shared})
	if err != nil {
		if ierr := Interrupted(ctx); ierr != nil {
			log.Warn().Msg(ierr.Error() + ": gloved stopped before it ran")
			return nil
		}
		return err
	}
	sd.SdNotify(false, sd.SdNotifyReady)
	defer sd.SdNotify(false, sd.SdNotifyStopping)
	for {
		next, err := s.serve(ctx, d)
		if next == nil {
			if errors.Is(err, context.Canceled) {
				err = nil
			}
			return err
		}
		d = next
	}
}

// serve runs d until it ends (nil and its error) or a reload replaces it
// (the new daemon).
func (s *Service) serve(ctx context.Context, d *Daemon) (*Daemon, error) {
	rctx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- d.Run(rctx) }()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			return nil, err
		case <-s.Reload:
			d.log.Info().Msg("SIGHUP: reading the config and loading its scene")
			next, scene, shared, err := s.prepare(ctx)
			if ierr := Interrupted(ctx); ierr != nil {
				d.log.Warn().Msg("SIGHUP: " + ierr.Error() + ": gloved stops")
				stop()
				return nil, <-done
			}
			if err == nil {
				err = d.canListen(next)
			}
			if err != nil {
				d.log.Error().Err(err).Msg("SIGHUP: config not reloaded; the running one goes on")
				continue
			}
			next.logWarnings(d.log)
			d.log.Info().Msg("SIGHUP: reloading the config")
			select {
			case err := <-done: // the daemon ended meanwhile: nothing to hand on
				return nil, err
			default:
			}
			notifyReloading()
			defer sd.SdNotify(false, sd.SdNotifyReady)
			defer keepWatchdogFed()()
			c := d.handoff(next)
			c.scene, c.shared = scene, shared
			defer d.keepReloading(c)()
			stop()
			if err := <-done; err != nil {
				d.log.Error().Err(err).Msg("the daemon stopped with an error for the reload")
			}
			c.tally = d.tally.next(d, c)
			if s.beforeReplace != nil {
				s.beforeReplace(c)
			}
			return s.replace(ctx, d, next, c)
		case <-tick.C:
			if s.Tick != nil {
				s.Tick(d)
			}
		}
	}
}

// prepare reads and validates the config, with its scene loaded and
// prepared for its hands: the start's, and each reload's while the
// running daemon goes on. Its error names the config file (ErrConfig:
// `gloved run` exits 2, as --check does for the same config); the config
// comes with it once read.
func (s *Service) prepare(ctx context.Context) (*Config, *env.Mesh, *contact.Shared, error) {
	next, err := s.Load()
	if err != nil {
		return nil, nil, nil, err
	}
	scene, err := next.Validate(ctx)
	if err != nil {
		return next, nil, nil, next.Invalid(err)
	}
	shared, err := session.PrepareScene(ctx, scene, next.PipelineOptions())
	if err != nil {
		return next, nil, nil, next.Invalid(fmt.Errorf("scene: %w", err))
	}
	return next, scene, shared, nil
}

// replace starts the daemon of next in place of the stopped old one; if it
// cannot start, the old config starts again. ctx's end meanwhile (the new
// scene's trees take seconds to build) stops both: nil and no error.
func (s *Service) replace(ctx context.Context, old *Daemon, next *Config, c *carried) (*Daemon, error) {
	d, err := newDaemon(ctx, next, NewLogger(next, s.Log), time.Now(), c)
	if err == nil {
		return d, nil
	}
	if ierr := Interrupted(ctx); ierr != nil {
		old.log.Warn().Msg("SIGHUP: " + ierr.Error() + ": gloved stops")
		c.close()
		return nil, nil
	}
	old.log.Error().Err(err).Msg("SIGHUP: the new config did not start; back to the previous one")
	c.scene, c.shared = old.scene, old.shared
	d, rerr := newDaemon(ctx, old.config, old.log, time.Now(), c)
	if rerr != nil {
		c.close()
		return nil, fmt.Errorf("reload: %v; the previous config did not restart either: %w", err, rerr)
	}
	return d, nil
}

// Interrupted is the error of a scene's loading that ctx's end cut short
// (a SIGTERM or a SIGINT, which a scene of millions of triangles need not
// wait out), naming why ctx ended; nil while ctx goes on.
func Interrupted(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	}
	return fmt.Errorf("interrupted while loading the scene (%v)", context.Cause(ctx))
}

// notifyReloading tells systemd a reload has begun (READY follows when the
// new daemon runs).
func notifyReloading() {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		return
	}
	sd.SdNotify(false, fmt.Sprintf("RELOADING=1\nMONOTONIC_USEC=%d", ts.Nano()/1000))
}

// keepWatchdogFed pings the watchdog while no daemon runs (a reload
// builds the next one) and returns the func that stops it.
func keepWatchdogFed() func() {
	every := watchdogInterval()
	if every <= 0 {
		return func() {}
	}
	stop := make(chan struct{})
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			sd.SdNotify(false, sd.SdNotifyWatchdog)
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(stop) }
}
