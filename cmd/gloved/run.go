package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"

	"github.com/gloved/gloved/configs"
	"github.com/gloved/gloved/daemon"
)

// loadRunConfig reads -c FILE, or the built-in demo config.
func loadRunConfig(path string) (*daemon.Config, error) {
	if path == "" {
		text, err := configs.Files.ReadFile("demo.toml")
		if err != nil {
			return nil, err
		}
		c, err := daemon.ParseConfig("built-in configs/demo.toml", text)
		if err != nil {
			return nil, err
		}
		c.Path = ""
		return c, nil
	}
	return daemon.LoadConfig(path)
}

// newLogger writes human console lines on a terminal and JSON otherwise
// (under systemd the journal takes JSON), per the config.
func newLogger(c *daemon.Config, w io.Writer) zerolog.Logger {
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

func runRun(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("run", "gloved run [-c FILE] [--check] [--status] [--for DURATION]", out)
	path := fs.String("c", "", "config file (default: the built-in demo, configs/demo.toml)")
	check := fs.Bool("check", false, "validate the config (and load its scene and calibrations), then exit")
	status := fs.Bool("status", isatty.IsTerminal(os.Stdout.Fd()), "print a live status line every second")
	runFor := fs.Duration("for", 0, "stop after this long (0: run until SIGINT/SIGTERM)")
	if pos, err := parseInterleaved(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	cfg, err := loadRunConfig(*path)
	if err != nil {
		return err
	}
	if *check {
		scene, err := daemon.LoadScene(cfg)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "config ok: %d hand(s), scene of %d triangles in %v\n", len(cfg.Hands), len(scene.Tris), scene.Objects)
		return nil
	}
	if *runFor > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *runFor)
		defer cancel()
	}
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	for {
		log := newLogger(cfg, os.Stderr)
		d, err := daemon.New(cfg, log)
		if err != nil {
			return err
		}
		rctx, stop := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- d.Run(rctx) }()
		reload := false
		tick := time.NewTicker(time.Second)
	wait:
		for {
			select {
			case err = <-done:
				break wait
			case <-hup:
				next, perr := loadRunConfig(*path)
				if perr != nil {
					log.Error().Err(perr).Msg("SIGHUP: config not reloaded")
					continue
				}
				log.Info().Msg("SIGHUP: reloading the config")
				cfg, reload = next, true
				stop()
			case <-tick.C:
				if *status {
					printStatus(out, d.Snapshot())
				}
			}
		}
		tick.Stop()
		stop()
		if *status {
			fmt.Fprintln(out)
		}
		if !reload || ctx.Err() != nil {
			if errors.Is(err, context.Canceled) {
				err = nil
			}
			return err
		}
	}
}

func printStatus(out io.Writer, s daemon.Status) {
	var hands []string
	for name, st := range s.Hands {
		hands = append(hands, name+" "+st)
	}
	fmt.Fprintf(out, "\r%5.1f fps  p50 %6.1f us  p99 %6.1f us  contacts %2d  overruns %d  subscribers %d  %s   ",
		s.FPS, float64(s.P50.Nanoseconds())/1e3, float64(s.P99.Nanoseconds())/1e3, s.Contacts, s.Overruns, s.Subscribers, strings.Join(hands, ", "))
}
