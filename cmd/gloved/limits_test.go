package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gloved/gloved/daemon"
	"github.com/gloved/gloved/devices/recording"
)

// TestRecordRefusesATimeItCannotCount: --seconds beyond a billion (or
// infinite) would overflow a duration and record nothing; it is a usage
// error, said in one line.
func TestRecordRefusesATimeItCannotCount(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.glove")
	for _, s := range []string{"1e10", "inf", "NaN", "-1"} {
		r := runBinary(t, 20*time.Second, "record", "--device", "sim", "--seconds", s, "-o", out)
		r.oneLine(t, 2, "--seconds S (0 < S <= 1e9)")
	}
}

// TestCheckRefusesARecordingPathThatIsNoFile: a pipe named as where a
// session is recorded fails --check, which would otherwise pass a
// daemon that records nothing.
func TestCheckRefusesARecordingPathThatIsNoFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := simConfig(t, "127.0.0.1:0", "", fifo)
	r := runBinary(t, 20*time.Second, "run", "-c", cfg, "--check")
	r.oneLine(t, 2, fifo+" is not a regular file")
	if _, err := os.Stat(fifo); err != nil {
		t.Fatal(err)
	}
}

// TestEmulateRefusesNumbersOutOfRange: every number flag of gloved
// emulate is finite and in its range, or the emulator does not start:
// one line naming the flag and the range.
func TestEmulateRefusesNumbersOutOfRange(t *testing.T) {
	for _, tc := range []struct{ flag, value, want string }{
		{"garbage", "nan", "0 to 1"},
		{"garbage", "1.5", "0 to 1"},
		{"lose", "-0.1", "0 to 1"},
		{"unplug-at", "-5", "0 (never) to 1e9"},
		{"unplug-at", "nan", "0 (never) to 1e9"},
		{"unplug-for", "0", "0.001 to 1e9"},
		{"silent-at", "inf", "0 (never) to 1e9"},
		{"silent-for", "-1", "0.001 to 1e9"},
		{"hangup-at", "1e10", "0 (never) to 1e9"},
		{"hangup-for", "+Inf", "0.001 to 1e9"},
		{"noise", "nan", "0 to 50 counts"},
	} {
		r := runBinary(t, 10*time.Second, "emulate", "--"+tc.flag, tc.value)
		r.oneLine(t, 2, "--"+tc.flag+" ", tc.want)
	}
}

// TestAConfigValueWrittenIsCheckedAsWritten: a key left out takes its
// default, but one written is checked as written: a zero that cannot run
// is refused with the range, not quietly taken for the default; a zero
// inside the documented range means zero.
func TestAConfigValueWrittenIsCheckedAsWritten(t *testing.T) {
	for _, tc := range []struct{ extra, says string }{
		{"[view]\nmax_viewers = 0\n", "view.max_viewers = 0: want 1 to 256"},
		{"lease_s = 0.0\n", "osc.lease_s = 0: want 1 to 3600"},
		{"subscribers_per_source = 0\n", "osc.subscribers_per_source = 0: want 1 to 32"},
		{"[frame]\nstall_ms = 0.0\n", "frame.stall_ms = 0: want 50 to 60000"},
		{"[frame]\nbudget_ms = 0.0\n", "frame.budget_ms = 0: want 1e-06 (a nanosecond) to 1000"},
		{"[frame]\nbudget_ms = 1e-9\n", "frame.budget_ms = 1e-09: want 1e-06 (a nanosecond) to 1000"},
		{"[self]\npinch_off_m = 0.0\n", "pinch_off_m = 0: want 0 <= on < off <= 0.1"},
		{"prefix = \"\"\n", `osc.prefix = "": want an OSC address`},
		{"[log]\nlevel = \"\"\n", `log.level = "": want debug`},
		{"[[osc.profile]]\nname = \"vrchat\"\nrate_hz = 0.0\n", "osc.profile[0].rate_hz = 0: want 1 to 50"},
		{"[[osc.profile]]\nname = \"vrchat\"\napproach_mps = 0\n", "osc.profile[0].approach_mps = 0: want a speed above 0"},
		{"[feedback]\nrate_hz = 0.0\n", "feedback.rate_hz = 0: want 1 to 1000"},
	} {
		r := runBinary(t, 20*time.Second, "run", "-c", writeConfig(t, "127.0.0.1:0", "builtin:grasp", tc.extra), "--check")
		r.oneLine(t, 2, tc.says)
	}
	for _, zero := range []string{"[frame]\nproximity_m = 0.0\n", "[self]\nslack_m = 0.0\npinch_on_m = 0.0\n", "[frame]\nworkers = 0\n"} {
		if r := runBinary(t, 20*time.Second, "run", "-c", writeConfig(t, "127.0.0.1:0", "builtin:grasp", zero), "--check"); r.code != 0 {
			t.Errorf("%q refused: %s", zero, r.stderr)
		}
	}
}

// TestAHandKeyWrittenAsZeroIsRefusedNotTakenForTheDefault: a [[hand]]
// key whose zero stands for its default when left out (length, breadth,
// sensors, speed, motion, baud; side, calibration, recording, port and
// mesh written empty) is checked as written when written, by
// --check and by run alike, in one line naming the key and its range; the
// same keys left out still take their defaults, and sensors = 0 still
// asks a CyberGlove for its count, as configs/cyberglove.toml writes it.
func TestAHandKeyWrittenAsZeroIsRefusedNotTakenForTheDefault(t *testing.T) {
	for _, tc := range []struct{ hand, says string }{
		{"device = \"sim\"\nlength = 0.0", "hand[0].length = 0 m: want 0.05-0.4"},
		{"device = \"sim\"\nbreadth = 0.0", "hand[0].breadth = 0 m: want 0.02-0.2"},
		{"device = \"sim\"\nsensors = 0", "hand[0].sensors = 0: want 18 or 22"},
		{"device = \"sim\"\nspeed = \"\"", `hand[0].speed = "": want "1" or "max"`},
		{"device = \"sim\"\nmotion = \"\"", `hand[0].motion = "": want grasp`},
		{"device = \"cyberglove\"\nport = \"/dev/gloved-test-absent\"\nbaud = 0", "hand[0].baud = 0: want a positive rate"},
		{"device = \"sim\"\nside = \"\"", `hand[0].side = "": empty: write right or left, or leave the key out`},
		{"device = \"sim\"\ncalibration = \"\"", `hand[0].calibration = "": empty: write a calibration file, or leave the key out`},
		{"device = \"sim\"\nrecording = \"\"", `hand[0].recording = "": empty: write a recording file, or leave the key out`},
		{"device = \"sim\"\nport = \"\"", `hand[0].port = "": empty: write the glove's device, or leave the key out`},
		{"device = \"sim\"\nmesh = \"\"", `hand[0].mesh = "": empty: write a skinned hand's .glb, or leave the key out`},
	} {
		path := handConfig(t, t.TempDir(), tc.hand, "127.0.0.1:9", "")
		runBinary(t, 20*time.Second, "run", "-c", path, "--check").oneLine(t, 2, tc.says)
		runBinary(t, 20*time.Second, "run", "-c", path).oneLine(t, 2, tc.says)
	}
	for _, ok := range []string{"device = \"sim\"", "device = \"cyberglove\"\nport = \"/dev/gloved-test-absent\"\nsensors = 0"} {
		path := handConfig(t, t.TempDir(), ok, "127.0.0.1:9", "")
		if r := runBinary(t, 20*time.Second, "run", "-c", path, "--check"); r.code != 0 {
			t.Errorf("%q refused: %s", ok, r.stderr)
		}
	}
}

// TestTheAddressesAConfigBuildsAreOSCAddressesThatFit: osc.prefix and a
// vrchat profile's parameter names go into every address sent, so a
// control character (a NUL ends the address on the wire), a byte beyond
// ASCII, or a part longer than osc.MaxAddressPart (256 bytes: a
// 70,000-byte prefix fits no datagram, and nothing at all was sent) is
// refused by --check and by run, in one line naming the key; 256 bytes
// pass. So is a per-hand name holding {finger}, which once expanded
// was the bare /avatar/parameters/.
func TestTheAddressesAConfigBuildsAreOSCAddressesThatFit(t *testing.T) {
	long := strings.Repeat("x", 70000)
	vrchatParam := func(key, name string) string {
		return "[[osc.profile]]\nname = \"vrchat\"\ntargets = [\"127.0.0.1:9\"]\nparameters = { " + key + " = \"" + name + "\" }\n"
	}
	vrchat := func(curl string) string { return vrchatParam("curl", curl) }
	for _, tc := range []struct{ extra, says string }{
		{"prefix = \"/g\\u0000x\"\n", `osc.prefix = "/g\x00x": byte 2 (0x00) is not printable ASCII`},
		{"prefix = \"/g\\nx\"\n", `osc.prefix = "/g\nx": byte 2 (0x0a) is not printable ASCII`},
		{"prefix = \"/gl\u00f6ved\"\n", "osc.prefix = \"/gl\u00f6ved\": byte 3 (0xc3) is not printable ASCII"},
		{"prefix = \"/" + long + "\"\n", "(70001 bytes)\": 70001 bytes: want at most 256"},
		{vrchat("x\\n\\u0000{Finger}"), `osc.profile[0].parameters.curl = "x\n\x00{Finger}": want a parameter name: printable ASCII, no spaces`},
		// A per-hand name with {finger} expanded to "": the bare /avatar/parameters/.
		{vrchatParam("fist", "{finger}"), `osc.profile[0].parameters.fist = "{finger}": want no {finger} (or {Finger}) in it: it names one parameter per hand`},
		{vrchat(long + "{Finger}"), "osc.profile[0].parameters.curl = \"" + long[:64] + "... (70008 bytes)\": want a name of at most 256 bytes once expanded (one is 70005)"},
	} {
		cfg := writeConfig(t, "127.0.0.1:0", "builtin:grasp", tc.extra)
		runBinary(t, 20*time.Second, "run", "-c", cfg, "--check").oneLine(t, 2, tc.says)
		runBinary(t, 20*time.Second, "run", "-c", cfg).oneLine(t, 2, tc.says)
	}
	for _, fits := range []string{"prefix = \"/" + strings.Repeat("x", 255) + "\"\n", vrchat(strings.Repeat("x", 250) + "{Finger}")} {
		if r := runBinary(t, 20*time.Second, "run", "-c", writeConfig(t, "127.0.0.1:0", "builtin:grasp", fits), "--check"); r.code != 0 {
			t.Errorf("%.40q refused: %s", fits, r.stderr)
		}
	}
}

// TestFramesThatCannotBeSentAreSaidOnce: a destination every frame
// fails to reach (one no route leads to, in a private network namespace
// of loopback alone) is said in the log, with the error, once and not at
// every frame: the send errors counter alone climbed before, unsaid.
func TestFramesThatCannotBeSentAreSaidOnce(t *testing.T) {
	t.Parallel()
	if !inNamespace(t) {
		return
	}
	cfg := writeConfig(t, "0.0.0.0:0", "builtin:grasp", "[[osc.profile]]\nname = \"gloved\"\ntargets = [\"192.0.2.1:9\"]\n")
	p := startGloved(t, "gloved run", "run", "-c", cfg, "--status=false")
	const said = "osc: a datagram could not be sent"
	if l := p.logLine(t, said); l["to"] != "192.0.2.1:9" || !strings.Contains(fmt.Sprint(l["error"]), "unreachable") {
		t.Errorf("said %v", l)
	}
	time.Sleep(2 * time.Second) // some 100 frames more, each failing
	if n := strings.Count(p.errs.String(), said); n != 1 {
		t.Errorf("said %d times:\n%s", n, p.errs.String())
	}
}

// TestHandNamesAreLettersDigitsUnderscoresAndDashes: a hand's name goes
// into OSC addresses, metric labels, log lines and the page, so it is 1
// to 32 of A-Z a-z 0-9 _ -; a right-to-left override, a control
// character or an OSC pattern character is refused with one line.
func TestHandNamesAreLettersDigitsUnderscoresAndDashes(t *testing.T) {
	for _, name := range []string{"right\u202eevil", "right\x01", "right\u00a0", "hand*", "r{1,2}", "", strings.Repeat("h", 33), "rechte-Hand\u00e9"} {
		cfg := rightHandConfig(t, "", "127.0.0.1:0", "")
		text, err := os.ReadFile(cfg)
		if err != nil {
			t.Fatal(err)
		}
		text = []byte(strings.Replace(string(text), `name = "right"`, fmt.Sprintf("name = %q\ndevice = \"sim\"", name), 1))
		if err := os.WriteFile(cfg, text, 0o644); err != nil {
			t.Fatal(err)
		}
		r := runBinary(t, 20*time.Second, "run", "-c", cfg, "--check")
		r.oneLine(t, 2, "hand[0].name", "want 1 to 32 letters, digits, _ or -")
	}
	ok := rightHandConfig(t, "device = \"sim\"\n", "127.0.0.1:0", "")
	text, _ := os.ReadFile(ok)
	os.WriteFile(ok, []byte(strings.Replace(string(text), `name = "right"`, `name = "Left_2-b"`, 1)), 0o644)
	if r := runBinary(t, 20*time.Second, "run", "-c", ok, "--check"); r.code != 0 {
		t.Errorf("Left_2-b refused: %s", r.stderr)
	}
}

// TestARecordingWithoutSamplesIsSaidToHoldNone: every command that reads
// a recording's samples says, in one line and with exit code 1, that a
// recording of a header alone holds none, instead of printing nothing and
// succeeding.
func TestARecordingWithoutSamplesIsSaidToHoldNone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.glove")
	rec, err := recording.Create(empty, recording.Header{Model: "sim", Sensors: 22, Hand: "right"})
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"contacts", "--scene", "builtin:grasp", "--recording", empty},
		{"contacts", "--scene", "builtin:grasp", "--recording", empty, "--json"},
		{"dump", empty},
		{"export", "--scene", "builtin:grasp", "--recording", empty, "--out", dir},
		{"export", "--scene", "builtin:grasp", "--recording", empty, "--gltf", filepath.Join(dir, "e.glb")},
		{"replay", empty},
		{"bench", "pipeline", "--scene", "builtin:grasp", "--recording", empty},
	} {
		r := runBinary(t, 20*time.Second, args...)
		r.oneLine(t, 1, empty+" holds no samples", "record the session again")
		if r.stdout != "" {
			t.Errorf("gloved %s printed %q", strings.Join(args, " "), r.stdout)
		}
	}
}

// TestAConfigOfMoreHandsThanTheMaximumIsRefused: hand-to-hand contact
// costs memory with the square of the hand count (100 simulated hands
// ran the daemon out of memory after --check passed them); one hand
// more than daemon.MaxHands is refused at --check and at a start in one
// line, and the maximum itself passes --check.
func TestAConfigOfMoreHandsThanTheMaximumIsRefused(t *testing.T) {
	hands := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "[[hand]]\nname = \"h%d\"\ndevice = \"sim\"\n", i)
		}
		b.WriteString("[scene]\nfiles = [{ path = \"builtin:grasp\" }]\n[osc]\nlisten = \"127.0.0.1:0\"\ntargets = []\n")
		path := filepath.Join(t.TempDir(), "gloved.toml")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	over := hands(daemon.MaxHands + 1)
	says := fmt.Sprintf("hands: %d [[hand]] tables: at most %d", daemon.MaxHands+1, daemon.MaxHands)
	runBinary(t, 20*time.Second, "run", "-c", over, "--check").oneLine(t, 2, says)
	runBinary(t, 20*time.Second, "run", "-c", over, "--status=false", "--for", "3s").oneLine(t, 2, says)
	if r := runBinary(t, 20*time.Second, "run", "-c", hands(daemon.MaxHands), "--check"); r.code != 0 {
		t.Errorf("%d hands refused: %s", daemon.MaxHands, r.stderr)
	}
}

// TestFlagsOutsideTheirRangeAreRefused: a flag whose value the command
// cannot honour is a usage error in one line, not a run that ignores it:
// --proximity and --workers take the ranges a config's frame.proximity_m
// and frame.workers do; --max-tris below every scene printed nothing and
// exited 0; an OpenGloves --max 0 said "full scale 0" and streamed 4095.
func TestFlagsOutsideTheirRangeAreRefused(t *testing.T) {
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"contacts", "--sim", "--scene", "builtin:grasp", "--frames", "1", "--proximity", "5"}, "--proximity 5: want 0 to 1 m"},
		{[]string{"contacts", "--sim", "--scene", "builtin:grasp", "--frames", "1", "--workers", "99999"}, "--workers 99999: want 0 (one per CPU, at most 4) to 4"},
		{[]string{"bench", "scenes", "--max-tris", "0"}, "--max-tris 0: no scene of the classes run is that small"},
		{[]string{"bench", "scenes", "--proximity", "-1"}, "--proximity -1: want 0 to 1 m"},
		{[]string{"emulate", "--model", "opengloves", "--max", "0"}, "--max 0: want 4095 (an ESP32) or 1023 (an AVR board)"},
		{[]string{"replay", "no-such.glove", "--proximity", "5"}, "--proximity 5: want 0 to 1 m"},
	} {
		runBinary(t, 20*time.Second, tc.args...).oneLine(t, 2, tc.says)
	}
}
