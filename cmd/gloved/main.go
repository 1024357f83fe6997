// Command gloved is the gloved daemon and its tools in one binary. With no
// arguments it runs the daemon on its built-in demo configuration (a
// simulated glove grasping a ball, frames over OSC to 127.0.0.1:9430);
// subcommands run it on a config, record and replay gloves, load scenes
// and reproduce the papers' experiments. `gloved help` lists them.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"sync"
	"syscall"

	"github.com/gloved/gloved/daemon"
)

// command is one subcommand: its one-line summary and its entry point.
type command struct {
	summary string
	usage   string
	run     func(ctx context.Context, args []string, out io.Writer) error
}

func commands() map[string]command {
	return map[string]command{
		"run": {
			summary: "the daemon: gloves in, contacts out over OSC, per its config (default: the built-in demo)",
			usage:   "gloved run [-c FILE] [--check]",
			run:     runRun,
		},
		"replay": {
			summary: "run a recording through the whole pipeline and OSC, in real time or as fast as possible",
			usage:   "gloved replay FILE [--speed 1|max] [flags]",
			run:     runReplay,
		},
		"watch": {
			summary: "subscribe to a running daemon and show its contacts live",
			usage:   "gloved watch [--daemon ADDR]",
			run:     runWatch,
		},
		"export": {
			summary: "write a session's link geometry, link transforms, scene and contacts in plain formats, or as one animated glTF file",
			usage:   "gloved export --scene FILE (--recording FILE | --sim) (--out DIR | --gltf FILE)",
			run:     runExport,
		},
		"demo": {
			summary: "run the simulated grasp for 3 s and print the contacts of every tenth frame",
			usage:   "gloved demo",
			run:     runDemo,
		},
		"collide": {
			summary: "load two mesh files, build their OBBTrees and list the intersecting triangle pairs",
			usage:   `gloved collide A B [--place-b "tx ty tz qx qy qz qw"] [--first] [--max-pairs N] [--json] [--fit hull|surface|aabb]`,
			run:     runCollide,
		},
		"emulate": {
			summary: "answer the CyberGlove protocol (I/II, or III with --model cyberglove3), or stream an OpenGloves glove's lines (--model opengloves), on a pseudo-terminal, from a simulated motion or a recording, with fault injection",
			usage:   "gloved emulate [flags]",
			run:     runEmulate,
		},
		"record": {
			summary: "record a glove session (raw serial bytes, wrist pose, calibration) to a file",
			usage:   "gloved record --device cyberglove|cyberglove3|sim [flags] --seconds S -o FILE",
			run:     runRecord,
		},
		"ports": {
			summary: "list the serial ports (USB ids, serial number, product, the udev rule line, access) and, with --probe, which has a glove (a CyberGlove or an OpenGloves glove)",
			usage:   "gloved ports [--probe] [--baud B] [--timeout D] [PATH ...]",
			run:     runPorts,
		},
		"version": {
			summary: "print the version, the commit it was built from and the Go version",
			usage:   "gloved version",
			run:     runVersion,
		},
		"calibrate": {
			summary: "a guided per-user calibration: hold each pose, see the fitted hand, write the calibration file",
			usage:   "gloved calibrate --port PATH [--device cyberglove|cyberglove3] [--sensors 18|22] [--hold S] -o FILE",
			run:     runCalibrate,
		},
		"dump": {
			summary: "print a recording as one JSON object per sample: time, sequence, raw values, joint angles",
			usage:   "gloved dump FILE [--calibration FILE]",
			run:     runDump,
		},
		"contacts": {
			summary: "run a recorded or simulated session through the whole pipeline and print each frame's contacts",
			usage:   "gloved contacts --scene FILE[,FILE] (--recording FILE | --sim) [flags]",
			run:     runContacts,
		},
		"hand": {
			summary: "describe the hand model and export it posed: OBJ or binary glTF",
			usage:   "gloved hand [flags] [-o FILE.obj|FILE.glb]",
			run:     runHand,
		},
		"bench": {
			summary: "benchmarks: `gloved bench proximity`, `bench cab`, `bench self`, `bench bch` (the papers' experiments), `bench pipeline`, `bench scenes`, `bench latency`",
			usage:   "gloved bench proximity|cab|self|bch|pipeline|scenes|latency [flags]",
			run:     runBench,
		},
	}
}

// warnings is where commands say what they worked around (a damaged
// recording); a variable so that tests can read it.
var warnings io.Writer = os.Stderr

// warn tells the user of something worked around, without failing.
func warn(format string, args ...any) {
	fmt.Fprintf(warnings, "gloved: warning: "+format+"\n", args...)
}

// errUsage marks an error caused by the command line; main prints usage.
var errUsage = errors.New("usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals(os.Args[1:])...)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil && !errors.Is(err, errHelp) {
		fmt.Fprintln(os.Stderr, "gloved:", err)
		if errors.Is(err, errUsage) || errors.Is(err, daemon.ErrConfig) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// stopSignals are the signals that stop the command args name as Ctrl-C
// does: SIGINT, SIGTERM and, but for the daemon (`gloved run`, whose
// SIGHUP reloads its config), SIGHUP, the terminal closing or the ssh
// session dropping, so that an export keeps the frames it wrote and a
// recording says what it holds rather than dying with nothing said.
func stopSignals(args []string) []os.Signal {
	sigs := []os.Signal{os.Interrupt, syscall.SIGTERM}
	if name, _ := commandName(args); name != "run" {
		sigs = append(sigs, syscall.SIGHUP)
	}
	return sigs
}

// commandName is the command args name, and its arguments.
func commandName(args []string) (string, []string) {
	name := "run" // with the built-in demo config
	if len(args) > 0 {
		name, args = args[0], args[1:]
	}
	if name == "--version" {
		name = "version"
	}
	return name, args
}

func run(ctx context.Context, args []string, out io.Writer) error {
	w := &outputWriter{w: out}
	return w.check(runCommand(ctx, args, w))
}

func runCommand(ctx context.Context, args []string, out io.Writer) error {
	name, args := commandName(args)
	if name == "help" || name == "-h" || name == "--help" {
		printHelp(out)
		return nil
	}
	cmd, ok := commands()[name]
	if !ok {
		return fmt.Errorf("%w: unknown command %q (try `gloved help`)", errUsage, name)
	}
	return cmd.run(ctx, args, out)
}

// outputWriter is every command's standard output: it remembers the
// first write that failed (a full disk, a closed file), which check
// turns into the command's error if the command ended without one, so
// that no command's output is lost with exit status 0 and nothing said.
// Safe for concurrent writes, as the writer it wraps is.
type outputWriter struct {
	w   io.Writer
	mu  sync.Mutex
	err error
}

func (o *outputWriter) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	if err != nil {
		o.mu.Lock()
		if o.err == nil {
			o.err = err
		}
		o.mu.Unlock()
	}
	return n, err
}

// Fd is the wrapped writer's file descriptor, if it is a file (for
// terminal), else ^uintptr(0), no descriptor.
func (o *outputWriter) Fd() uintptr {
	if f, ok := o.w.(interface{ Fd() uintptr }); ok {
		return f.Fd()
	}
	return ^uintptr(0)
}

// check is the command's error err or, if it ended without one (or
// with the help a flag asked for), the first failed write. A reader that
// went away (EPIPE: `gloved run | head -1`; only the daemon, which
// ignores SIGPIPE, sees it, others end as `| head` ends them) wanted no
// more: not an error.
func (o *outputWriter) check(err error) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err != nil && !errors.Is(o.err, syscall.EPIPE) && (err == nil || errors.Is(err, errHelp)) {
		return fmt.Errorf("standard output: %w: what was printed is incomplete; free some space, or send the output elsewhere", o.err)
	}
	return err
}

func printHelp(out io.Writer) {
	fmt.Fprintln(out, "gloved: data-glove contact daemon and tools\n\nCommands:")
	cmds := commands()
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(out, "  %-10s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(out, "\nRun `gloved COMMAND -h` for a command's flags.")
}
