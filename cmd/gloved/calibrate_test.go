package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gloved/gloved/calibrator/calibratortest"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/devices/emulator/emulatortest"
	"github.com/gloved/gloved/devices/opengloves"
	"github.com/gloved/gloved/handmodel"
)

// proc is a gloved process a test talks to as a user would: it reads
// what the process prints and types lines at it.
type proc struct {
	name      string
	cmd       *exec.Cmd
	in        io.WriteCloser
	out, errs syncBuffer
	done      chan struct{}
	seen      int // how much of out the test has read
}

// startGloved starts the built binary; it is stopped when the test ends
// (killed if SIGTERM has not ended it within 10 s).
func startGloved(t *testing.T, name string, args ...string) *proc {
	t.Helper()
	return startCommand(t, name, exec.Command(binary(t), args...))
}

// startCommand starts cmd, a command that runs the built binary (under
// prlimit, say); it is stopped when the test ends.
func startCommand(t *testing.T, name string, cmd *exec.Cmd) *proc {
	t.Helper()
	p := &proc{name: name, cmd: cmd, done: make(chan struct{})}
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.errs
	var err error
	if p.in, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// expect waits until the process prints s after what was read so far,
// and reads past it.
func (p *proc) expect(t *testing.T, s string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		out := p.out.String()
		if i := strings.Index(out[p.seen:], s); i >= 0 {
			p.seen += i + len(s)
			return
		}
		select {
		case <-p.done:
			t.Fatalf("%s exited without saying %q; it said:\n%s\nstderr: %s", p.name, s, out[p.seen:], p.errs.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not say %q; it said:\n%s\nstderr: %s", p.name, s, out[p.seen:], p.errs.String())
		}
	}
}

// say types a line.
func (p *proc) say(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		t.Fatalf("typing at %s: %v", p.name, err)
	}
}

// exit waits for the process to end and returns its exit code.
func (p *proc) exit(t *testing.T) int {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not end; it said:\n%s", p.name, p.out.String())
	}
	return p.cmd.ProcessState.ExitCode()
}

// holdUntilTaken presses Enter and waits for the hold to be taken; when
// it is not (on a loaded machine a starved emulator or calibrate can
// stall the glove's records past the hold, or deliver old ones in it),
// it presses Enter again, as a user would.
func (p *proc) holdUntilTaken(t *testing.T) {
	t.Helper()
	for range 5 {
		p.say(t, "")
		p.expect(t, "recording... ")
		p.expect(t, "held: ")
		if out := p.out.String(); !strings.HasSuffix(out[:p.seen], "not held: ") {
			return
		}
		p.expect(t, "keep still for")
	}
	t.Fatalf("%s: five holds in a row were not taken", p.name)
}

// fidgetUntilAskedAgain presses Enter while the wearer fidgets and
// expects the calibration to ask again because the hand was not still;
// a hold rejected because the glove stopped sending (a starved process)
// is tried again. The wearer then holds pose.
func fidgetUntilAskedAgain(t *testing.T, cal, emu *proc, pose string) {
	t.Helper()
	for range 5 {
		emu.say(t, fidget(pose))
		cal.say(t, "")
		cal.expect(t, "recording... ")
		cal.expect(t, "held: ")
		out := cal.out.String()
		rejected := strings.HasSuffix(out[:cal.seen], "not held: ")
		from := cal.seen
		cal.expect(t, "keep still for")
		emu.expect(t, "s: "+pose+"\n") // the fidgeting is over
		switch why := cal.out.String()[from:cal.seen]; {
		case !rejected:
			t.Fatalf("a hold while fidgeting was taken")
		case strings.HasPrefix(why, "the hand was not held still"):
			return
		case !strings.HasPrefix(why, "the glove stopped sending"):
			t.Fatalf("a hold while fidgeting was rejected: %s", why)
		}
	}
	t.Fatalf("five holds in a row the glove stopped sending")
}

// waitLink waits until the emulator has linked its pty at link.
func waitLink(t *testing.T, emu *proc, link string) {
	t.Helper()
	awaitLink(t, link, func() string { return emu.out.String() + " " + emu.errs.String() })
}

// awaitLink waits up to 10 s until an emulator has linked its pty at
// link; said is what the emulator has written, for the failure.
func awaitLink(t *testing.T, link string, said func() string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Lstat(link); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the emulator never linked %s: %s", link, said())
		}
	}
}

// fidget is what the emulator is told when the wearer does not keep
// still: flat and fist in turn every 50 ms for 1.2 s (longer than a
// 0.3 s hold after its settling), then pose.
func fidget(pose string) string {
	var b strings.Builder
	for i := range 24 {
		fmt.Fprintf(&b, "%s 0.05\n", []string{"flat", "fist"}[i%2])
	}
	return b.String() + pose
}

var samplesLine = regexp.MustCompile(`(?m)^#   \d+ \S+ +(\d+) samples`)

// readWritten loads the calibration a session wrote, which must list
// every pose held (with how many samples each), and returns it, its text
// and the samples in its shortest hold (what bounds the fit's error).
func readWritten(t *testing.T, path string, layouts ...*devices.Layout) (*handmodel.Calibration, []byte, int) {
	t.Helper()
	if len(layouts) == 0 {
		layouts = layout.Layouts(devices.Bits8)
	}
	got, err := handmodel.LoadCalibrationFor(path, layouts...)
	if err != nil {
		t.Fatal(err)
	}
	text, _ := os.ReadFile(path)
	counts := samplesLine.FindAllStringSubmatch(string(text), -1)
	if len(counts) != len(handmodel.CalPoses) {
		t.Fatalf("the file lists %d poses held, want %d:\n%s", len(counts), len(handmodel.CalPoses), text)
	}
	fewest := 1 << 30
	for _, c := range counts {
		n, _ := strconv.Atoi(c[1])
		fewest = min(fewest, n)
	}
	return got, text, fewest
}

// TestCalibrateRecoversAKnownCalibration: a user calibrates an emulated
// glove of known calibration with `gloved calibrate`: at each prompt they
// switch the emulator's pose and press Enter; at one pose they fidget and
// are asked again. The file written loads, and every sensor's offset and
// gain are the known ones within the error a fit can make from 8-bit
// readings with a count of noise; for 22 and 18 sensors and a left glove,
// and a CyberGlove III, whose 12-bit readings are the 8-bit ones with
// seeded low bits (a uniform sixteenth-of-a-count dither of variance
// 255/3072 count², mean -1/32 count, added to the noise and the bound);
// and an OpenGloves glove sending its splays and per-joint curls (41
// channels at 12 bits, each read a sixteenth of a count apart, or on an
// AVR board, --option max=1023, at 10 bits, a quarter of a count apart:
// half of it added to the bound): each channel that
// moves one joint is fitted where the poses pin that joint (a per-joint
// curl open in the flat hand and closed in the fist, a splay from the
// spread fingers, the thumb's from its poses), the others keep the
// shipped calibration.
func TestCalibrateRecoversAKnownCalibration(t *testing.T) {
	const noise, hold = 1.0, "0.3"
	for _, tc := range []struct {
		name    string
		sensors int
		left    bool
		model   string
	}{{"22 right", 22, false, "cyberglove"}, {"18 right", 18, false, "cyberglove"}, {"22 left", 22, true, "cyberglove"}, {"22 right III", 22, false, "cyberglove3"},
		{"opengloves", opengloves.Channels, false, opengloves.Name}, {"opengloves AVR", opengloves.Channels, false, opengloves.Name}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			known, err := calibratortest.Known(tc.sensors, tc.left, noise)
			if tc.model == opengloves.Name {
				known, err = calibratortest.KnownFor(opengloves.Layout, noise)
			}
			if err != nil {
				t.Fatal(err)
			}
			knownPath, link, outPath := filepath.Join(dir, "known.toml"), filepath.Join(dir, "glove"), filepath.Join(dir, "my.toml")
			if err := os.WriteFile(knownPath, calibratortest.TOML(known), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"emulate", "--model", tc.model, "--calibration", knownPath, "--noise", fmt.Sprint(noise), "--seed", strconv.Itoa(tc.sensors), "--link", link}
			if tc.left {
				args = append(args, "--left")
			}
			avr := strings.HasSuffix(tc.name, "AVR")
			if tc.model == opengloves.Name {
				args = append(args, "--splay", "--joints")
			}
			if avr {
				args = append(args, "--max", "1023")
			}
			emu := startGloved(t, "emulate", args...)
			waitLink(t, emu, link)
			calArgs := []string{"calibrate", "--port", link, "--device", tc.model, "--hold", hold, "-o", outPath}
			switch {
			case avr:
				calArgs = append(calArgs, "--option", "max=1023")
			case tc.model != opengloves.Name:
				calArgs = append(calArgs, "--sensors", strconv.Itoa(tc.sensors))
			}
			cal := startGloved(t, "calibrate", calArgs...)
			side := map[bool]string{false: "right", true: "left"}[tc.left]
			cal.expect(t, fmt.Sprintf("Calibrating the %d-sensor %s-hand glove on %s", tc.sensors, side, link))
			playing := "flat"
			for i, p := range handmodel.CalPoses {
				cal.expect(t, fmt.Sprintf("[%d/%d] %s\n", i+1, len(handmodel.CalPoses), p.Name))
				if i == 2 {
					fidgetUntilAskedAgain(t, cal, emu, p.Name)
				} else if p.Name != playing {
					emu.say(t, p.Name)
					emu.expect(t, "s: "+p.Name+"\n")
				}
				playing = p.Name
				cal.holdUntilTaken(t)
			}
			cal.expect(t, "Write this calibration?")
			cal.say(t, "y")
			cal.expect(t, "Wrote "+outPath)
			if code := cal.exit(t); code != 0 {
				t.Fatalf("calibrate exited %d: %s", code, cal.errs.String())
			}
			got, text, fewest := readWritten(t, outPath, known.Layout())
			if !regexp.MustCompile(`#   3 spread +\d+ samples, held at attempt \d`).Match(text) {
				t.Fatalf("the file does not list the third pose held at attempt 2:\n%s", text)
			}
			bound := calibratortest.ReadingError(noise, fewest)
			switch tc.model {
			case opengloves.Name:
				bound += map[bool]float64{false: 1.0 / 32, true: 1.0 / 8}[avr] // half a reading's step
				if !strings.Contains(string(text), `glove = "opengloves"`) {
					t.Errorf("the file does not name the glove:\n%s", text)
				}
			case "cyberglove3":
				bound = calibratortest.ReadingError(math.Sqrt(noise*noise+255.0/3072), fewest) + 1.0/32
				if !strings.Contains(string(text), `glove = "cyberglove3"`) {
					t.Errorf("the file does not name the III:\n%s", text)
				}
			}
			calibratortest.Check(t, got, known, bound)
		})
	}
}

// TestCalibrateFailuresSayWhatIsWrong: each way a calibration cannot
// start or finish ends with one line saying why, and writes nothing.
func TestCalibrateFailuresSayWhatIsWrong(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "my.toml")
	existing := filepath.Join(dir, "old.toml")
	os.WriteFile(existing, []byte("mine"), 0o644)
	missing := filepath.Join(dir, "ttyUSB9")
	silent, err := emulator.OpenPTY() // nothing answers on it
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	glove := emulatortest.Start(t, emulator.Opts{Sensors: 22, Right: true}, filepath.Join(dir, "glove"), emulator.Hangup{})
	busy := busyTCP(t)
	for _, tc := range []struct {
		name string
		args []string
		code int
		says []string
	}{
		{"missing port", []string{"--port", missing, "-o", out}, 1, []string{missing}},
		{"not a glove", []string{"--port", silent.Path, "-o", out}, 1, []string{silent.Path, "no reply"}},
		{"-o exists", []string{"--port", glove.Path, "-o", existing}, 1, []string{"-o " + existing + " exists: give --force"}},
		{"-o unwritable", []string{"--port", glove.Path, "-o", filepath.Join(existing, "my.toml")}, 1, []string{"cannot write " + filepath.Join(existing, "my.toml")}},
		{"-o missing", []string{"--port", glove.Path}, 2, []string{"needs -o FILE"}},
		{"bad --sensors", []string{"--port", glove.Path, "--sensors", "20", "-o", out}, 2, []string{"--sensors 20: want 18 or 22"}},
		{"--baud 0", []string{"--port", glove.Path, "--baud", "0", "-o", out}, 2, []string{"--baud 0: want a positive rate"}},
		{"--device opengloves on a CyberGlove", []string{"--port", glove.Path, "--device", "opengloves", "-o", out}, 1, []string{"no sample from " + glove.Path + " within 3s", "a glove of --device opengloves"}},
		{"--side of an I/II", []string{"--port", glove.Path, "--side", "left", "-o", out}, 2, []string{"--side left: a CyberGlove I/II says its side itself", "leave --side out"}},
		{"other sensor count", []string{"--port", glove.Path, "--sensors", "18", "-o", out}, 1, []string{"the unit reports 22 sensors, but 18 are asked for"}},
		{"end of input", []string{"--port", glove.Path, "-o", out}, 1, []string{"the input ended before the calibration was confirmed; nothing written to " + out}},
		{"--view port in use", []string{"--port", glove.Path, "--view", busy, "-o", out}, 1, []string{"--view " + busy + ": the port is in use"}},
		{"--view malformed", []string{"--port", glove.Path, "--view", "8080", "-o", out}, 2, []string{"--view 8080"}},
	} {
		r := runBinary(t, 20*time.Second, append([]string{"calibrate"}, tc.args...)...)
		r.oneLine(t, tc.code, tc.says...)
	}
	if b, _ := os.ReadFile(existing); string(b) != "mine" {
		t.Errorf("the existing file was changed: %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 { // old.toml and the glove's link
		t.Errorf("left in the directory: %v", ents)
	}

	// Ctrl-C at a prompt ends cleanly, writing nothing.
	cal := startGloved(t, "calibrate", "calibrate", "--port", glove.Path, "-o", out)
	cal.expect(t, "[1/7] flat")
	cal.cmd.Process.Signal(syscall.SIGINT)
	if code := cal.exit(t); code != 1 || strings.TrimSpace(cal.errs.String()) != "gloved: calibrate: interrupted; nothing written to "+out {
		t.Errorf("interrupted: exit %d, said %q", code, cal.errs.String())
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("an interrupted calibration wrote its file")
	}
}

// TestEmulatePosesFailuresSayWhatIsWrong: the emulator's calibration
// poses refuse what they cannot play, naming it.
func TestEmulatePosesFailuresSayWhatIsWrong(t *testing.T) {
	dir := t.TempDir()
	known, c := writeKnownCalibration(t, dir)
	table := filepath.Join(dir, "table.toml")
	text := strings.Replace(string(calibratortest.TOML(c)), `name = "index_mcp"`, "name = \"index_mcp\"\ntable = [[0.0, 0.0], [100.0, 1.0]]", 1)
	os.WriteFile(table, []byte(text), 0o644)
	script := filepath.Join(dir, "bad.txt")
	os.WriteFile(script, []byte("fist 1\nwave 2\n"), 0o644)
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--calibration", filepath.Join(dir, "missing.toml")}, "missing.toml"},
		{[]string{"--calibration", known, "--motion", "fist"}, "give --source and --motion only without it"},
		{[]string{"--calibration", known, "--sensors", "18"}, "--sensors 18, but " + known + " is for 22 sensors"},
		{[]string{"--calibration", known, "--pose", "wave"}, `no pose "wave" (have fist, flat, spread`},
		{[]string{"--calibration", known, "--noise", "-1"}, "--noise -1: want 0 to 50 counts"},
		{[]string{"--calibration", known, "--script", script}, "bad.txt line 2: emulator: no pose \"wave\""},
		{[]string{"--calibration", table}, "sensor index_mcp: only a linear calibration"},
	} {
		if _, err := gloved(t, append([]string{"emulate"}, tc.args...)...); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%v: got %v, want an error saying %q", tc.args, err, tc.says)
		}
	}
}

// TestAScriptStepOutOfRangeSaysBothBounds: a --script step too long
// (1e10 s) was refused saying "0.001 or more", as if too short; the one
// line, exit 1 as for any bad line of the script file, now says the
// whole range.
func TestAScriptStepOutOfRangeSaysBothBounds(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	known, _ := writeKnownCalibration(t, dir)
	for _, step := range []string{"1e10", "0.0001"} {
		script := filepath.Join(dir, "steps.txt")
		os.WriteFile(script, []byte("fist "+step+"\nflat\n"), 0o644)
		r := runBinary(t, 20*time.Second, "emulate", "--calibration", known, "--script", script)
		r.oneLine(t, 1, "steps.txt line 1", `"`+step+`": want seconds after the pose, 0.001 to 1000000`)
	}
}

// writeKnownCalibration writes a known 22-sensor calibration to
// dir/known.toml, for an emulator that plays the calibration poses.
func writeKnownCalibration(t *testing.T, dir string) (string, *handmodel.Calibration) {
	t.Helper()
	c, err := calibratortest.Known(22, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	known := filepath.Join(dir, "known.toml")
	if err := os.WriteFile(known, calibratortest.TOML(c), 0o644); err != nil {
		t.Fatal(err)
	}
	return known, c
}

// TestACalibrationThatCannotBeWrittenIsPrintedToBeSaved: a session whose
// -o cannot be written at its end (here a directory put there meanwhile;
// a full disk alike) prints the calibration between two scissors lines
// and exits 1 saying so: the seven poses held are not lost with the file.
func TestACalibrationThatCannotBeWrittenIsPrintedToBeSaved(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	known, err := calibratortest.Known(22, false, 1)
	if err != nil {
		t.Fatal(err)
	}
	knownPath, link, outPath := filepath.Join(dir, "known.toml"), filepath.Join(dir, "glove"), filepath.Join(dir, "my.toml")
	if err := os.WriteFile(knownPath, calibratortest.TOML(known), 0o644); err != nil {
		t.Fatal(err)
	}
	emu := startGloved(t, "emulate", "emulate", "--calibration", knownPath, "--noise", "1", "--seed", "22", "--link", link)
	waitLink(t, emu, link)
	cal := startGloved(t, "calibrate", "calibrate", "--port", link, "--hold", "0.3", "-o", outPath)
	playing := "flat"
	for i, p := range handmodel.CalPoses {
		cal.expect(t, fmt.Sprintf("[%d/%d] %s\n", i+1, len(handmodel.CalPoses), p.Name))
		if p.Name != playing {
			emu.say(t, p.Name)
			emu.expect(t, "s: "+p.Name+"\n")
		}
		playing = p.Name
		cal.holdUntilTaken(t)
	}
	cal.expect(t, "Write this calibration?")
	if err := os.Mkdir(outPath, 0o755); err != nil {
		t.Fatal(err)
	}
	cal.say(t, "y")
	cal.expect(t, "Here it is, to save by hand into a file:\n"+scissors+"\n")
	if code := cal.exit(t); code != 1 {
		t.Fatalf("calibrate exited %d: %s", code, cal.errs.String())
	}
	out := cal.out.String()
	printed := out[strings.Index(out, scissors+"\n")+len(scissors)+1:]
	end := strings.Index(printed, scissors)
	if end < 0 {
		t.Fatalf("no closing scissors line:\n%s", out)
	}
	if _, err := handmodel.ParseCalibrationFor("printed", []byte(printed[:end]), known.Layout()); err != nil {
		t.Errorf("the printed calibration does not parse: %v\n%s", err, printed[:end])
	}
	if !strings.Contains(cal.errs.String(), "the calibration is printed above") {
		t.Errorf("stderr: %s", cal.errs.String())
	}
}
