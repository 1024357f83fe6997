package main

import (
	"bytes"
	"context"
	encbin "encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/session"
)

func runBenchLatency(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("bench latency", "gloved bench latency [--frames N] [--warmup N] [--scene FILE,...] [--motion grasp|tap|pinch] [--count-tris] [--json]", out)
	frames := fs.Int("frames", 2000, "frames to measure (100 per second)")
	warmup := fs.Int("warmup", 100, "frames to skip first (start-up, first contacts)")
	scene := fs.String("scene", "builtin:grasp", "scene files, comma-separated (as the config's [scene] files)")
	motion := fs.String("motion", "grasp", "simulated motion the emulated glove plays: grasp, tap or pinch")
	countTris := fs.Bool("count-tris", false, "count the triangles each contact touches ([frame] count_tris)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if pos, err := parseInterleaved(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	if *frames < 1 || *warmup < 0 {
		return fmt.Errorf("%w: --frames must be at least 1 and --warmup at least 0", errUsage)
	}
	files, err := latencySceneFiles(*scene)
	if err != nil {
		return err
	}
	res, err := measureLatency(ctx, latencyRun{frames: *frames, warmup: *warmup, files: files, motion: *motion, countTris: *countTris})
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(out).Encode(res)
	}
	res.print(out, *scene)
	return nil
}

// latencySceneFiles checks the scene files and makes them absolute, since
// the daemon reads them from its config's directory.
func latencySceneFiles(list string) ([]string, error) {
	var files []string
	for _, f := range strings.Split(list, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		if f != session.BuiltinScene {
			abs, err := filepath.Abs(f)
			if err != nil {
				return nil, fmt.Errorf("--scene %s: %w", f, err)
			}
			if _, err := os.Stat(abs); err != nil {
				return nil, fmt.Errorf("--scene: %w", err)
			}
			f = abs
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%w: --scene names no file", errUsage)
	}
	return files, nil
}

// latencyRun is what one measurement runs.
type latencyRun struct {
	frames, warmup int
	files          []string
	motion         string
	countTris      bool
}

// latencyConfig is the daemon's config for a measurement: one glove on the
// emulator's link, OSC to the receiver.
func latencyConfig(r latencyRun, link, target string) string {
	var files []string
	for _, f := range r.files {
		files = append(files, fmt.Sprintf("{ path = %q }", f))
	}
	return fmt.Sprintf(`[[hand]]
name = "right"
device = "cyberglove"
port = %q
wrist = [0.70710678, -0.70710678, 0.0, 0.0, 0.0, 0.91, 0.10]
[scene]
files = [%s]
[osc]
targets = [%q]
listen = "127.0.0.1:0"
[frame]
count_tris = %t
`, link, strings.Join(files, ", "), target, r.countTris)
}

// measureLatency runs the emulator and the daemon as child processes of
// this binary, receives the daemon's frames here, and pairs each with the
// emulator's write of the record it came from.
func measureLatency(ctx context.Context, r latencyRun) (*latencyResult, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("bench latency: finding this binary: %w", err)
	}
	dir, err := os.MkdirTemp("", "gloved-latency-")
	if err != nil {
		return nil, fmt.Errorf("bench latency: %w", err)
	}
	defer os.RemoveAll(dir)
	rx, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, fmt.Errorf("bench latency: receiver: %w", err)
	}
	defer rx.Close()
	link, stamps, cfg := filepath.Join(dir, "glove"), filepath.Join(dir, "stamps"), filepath.Join(dir, "latency.toml")
	if err := os.WriteFile(cfg, []byte(latencyConfig(r, link, rx.LocalAddr().String())), 0o644); err != nil {
		return nil, fmt.Errorf("bench latency: %w", err)
	}
	em, err := startChild(ctx, "emulator", exe, "emulate", "--link", link, "--stamps", stamps, "--motion", r.motion)
	if err != nil {
		return nil, err
	}
	defer em.stop()
	if err := em.waitFor(link, 5*time.Second); err != nil {
		return nil, err
	}
	dm, err := startChild(ctx, "daemon", exe, "run", "-c", cfg, "--status=false")
	if err != nil {
		return nil, err
	}
	defer dm.stop()
	got, err := receiveFrames(ctx, rx, r.warmup+r.frames, dm)
	if err != nil {
		return nil, err
	}
	dm.stop()
	if err := em.stop(); err != nil {
		return nil, err
	}
	writes, err := readStamps(stamps)
	if err != nil {
		return nil, err
	}
	res := matchLatency(writes, got[r.warmup:])
	return &res, nil
}

// frameTimes is one received frame: its timetag (when the serial bytes
// completing its sample reached the driver) and its arrival here.
type frameTimes struct{ Timetag, Arrival time.Time }

// receiveFrames takes n frame bundles of the right hand from rx. It fails
// when the daemon exits or no frame comes for 5 s.
func receiveFrames(ctx context.Context, rx *net.UDPConn, n int, dm *child) ([]frameTimes, error) {
	frameAddr := []byte("/gloved/right/frame\x00")
	buf := make([]byte, 65536)
	got := make([]frameTimes, 0, n)
	last := time.Now()
	for len(got) < n {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := dm.exited(); err != nil {
			return nil, err
		}
		rx.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		k, _, err := rx.ReadFrom(buf)
		now := time.Now()
		if errors.Is(err, os.ErrDeadlineExceeded) {
			if now.Sub(last) > 5*time.Second {
				return nil, fmt.Errorf("bench latency: no frame from the daemon for 5 s (%d of %d received)%s", len(got), n, dm.tail())
			}
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("bench latency: receiving: %w", err)
		}
		// Read the bundle by hand: "#bundle\0", the timetag, the first
		// element's size, then its address.
		pk := buf[:k]
		if k < 40 || !bytes.HasPrefix(pk, []byte("#bundle\x00")) || !bytes.HasPrefix(pk[20:], frameAddr) {
			continue
		}
		last = now
		tt := goosc.NewTimetagFromTimetag(encbin.BigEndian.Uint64(pk[8:16])).Time()
		got = append(got, frameTimes{Timetag: tt, Arrival: now})
	}
	return got, nil
}
