package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/mattn/go-isatty"

	"github.com/gloved/gloved/daemon"
)

func runRun(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("run", "gloved run [-c FILE] [--check] [--status] [--for DURATION] [--view ADDR]", out)
	path := fs.String("c", "", "config file (default: the built-in demo, configs/demo.toml)")
	check := fs.Bool("check", false, "validate the config without opening a glove (scene, calibrations, recordings, addresses), then exit")
	status := fs.Bool("status", terminal(out), "print a live status line every second (redrawn in place on a terminal, one line a second otherwise)")
	runFor := addLimitFlag(fs, "for", 0, "stop after this long (0: run until SIGINT/SIGTERM)")
	viewAt := fs.String("view", "", `serve the live 3D page here (host:port) instead of where the config's [view] listen says; "off": no page`)
	if pos, err := parseInterleaved(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	if err := runFor.check(); err != nil {
		return err
	}
	svc := daemon.Service{Path: *path, Log: os.Stderr, View: *viewAt}
	if *check {
		cfg, err := svc.Load()
		if err != nil {
			return err
		}
		scene, err := cfg.Validate(ctx)
		if ierr := daemon.Interrupted(ctx); ierr != nil {
			return fmt.Errorf("%w: the config was not checked", ierr)
		}
		if err != nil {
			return cfg.Invalid(err)
		}
		notes, err := cfg.ListenNotes()
		if err != nil {
			return cfg.Invalid(err)
		}
		for _, w := range append(cfg.Warnings, notes...) {
			warn("%s", w)
		}
		names, more := scene.SomeObjects()
		fmt.Fprintf(out, "config ok: %d hand(s), scene of %d triangles in %v", len(cfg.Hands), len(scene.Tris), names)
		if more > 0 {
			fmt.Fprintf(out, " and %d more objects", more)
		}
		for i, p := range cfg.OSC.Profiles {
			sep := ", "
			if i == 0 {
				sep = "; profiles: "
			}
			fmt.Fprintf(out, "%s%s", sep, p.String())
		}
		fmt.Fprintln(out)
		return nil
	}
	if runFor.d > 0 {
		var cancel context.CancelFunc
		// Its cause names --for, so that a run whose time was up before
		// its scene loaded says so, not "context deadline exceeded".
		ctx, cancel = context.WithTimeoutCause(ctx, runFor.d, fmt.Errorf("--for %v was up; give a longer --for", runFor.d))
		defer cancel()
	}
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	// A reader of the status lines or the log that goes away (`| head`)
	// must not end the daemon: a write to its pipe fails, and nothing else.
	signal.Ignore(syscall.SIGPIPE)
	svc.Reload = hup
	if *status {
		redraw := terminal(out)
		svc.Tick = func(d *daemon.Daemon) { printStatus(out, d.Snapshot(), redraw) }
		if redraw {
			defer fmt.Fprintln(out)
		}
	}
	return svc.Run(ctx)
}

// terminal reports whether out is a terminal.
func terminal(out io.Writer) bool {
	f, ok := out.(interface{ Fd() uintptr }) // a file, or the output wrapping one
	return ok && isatty.IsTerminal(f.Fd())
}

// printStatus prints the status line: with redraw over the last one (a
// terminal), else as a line of its own (a pipe or a file, where carriage
// returns would make one endless line).
func printStatus(out io.Writer, s daemon.Status, redraw bool) {
	var hands []string
	for name, st := range s.Hands {
		hands = append(hands, name+" "+st)
	}
	slices.Sort(hands)
	fps := fmt.Sprintf("%5.1f", s.FPS)
	if !s.FPSMeasured {
		fps = "   --" // no whole second of frames yet: no rate to tell
	}
	line := fmt.Sprintf("%s fps  p50 %6.1f us  p99 %6.1f us  contacts %2d  overruns %d  subscribers %d  %s",
		fps, float64(s.P50.Nanoseconds())/1e3, float64(s.P99.Nanoseconds())/1e3, s.Contacts, s.Overruns, s.Subscribers, strings.Join(hands, ", "))
	if redraw {
		fmt.Fprintf(out, "\r%s   ", line)
		return
	}
	fmt.Fprintln(out, line)
}
