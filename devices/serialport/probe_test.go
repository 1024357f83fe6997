package serialport

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove"
	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/devices/emulator/emulatortest"
)

var fastProbe = ProbeOpts{Baud: 115200, Reply: 150 * time.Millisecond}

func TestProbeIdentifiesAnEmulatedGloveOnAPTY(t *testing.T) {
	for _, tc := range []struct {
		o    emulator.Opts
		want string
	}{
		{emulator.Opts{Sensors: 22, Right: true}, "CyberGlove (22 sensors, right)"},
		{emulator.Opts{Sensors: 18}, "CyberGlove (18 sensors, left)"},
	} {
		em := emulatortest.Start(t, tc.o, "", emulator.Hangup{})
		u, err := Probe(em.Path, fastProbe)
		if err != nil {
			t.Fatal(err)
		}
		if u.String() != tc.want || u.Model != "cyberglove" {
			t.Errorf("got %q (%+v), want %q", u, u, tc.want)
		}
		if n := len(em.Records()); n != 0 {
			t.Errorf("probing started a stream: %d records sent", n)
		}
	}
}

// A probe puts the line back as it found it: the baud rate, the modes and
// the control characters, all of termios.
func TestProbeLeavesTheLineAsItWas(t *testing.T) {
	em := emulatortest.Start(t, emulator.Opts{Sensors: 22, Right: true}, "", emulator.Hangup{})
	f, err := os.OpenFile(em.Path, os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fd := int(f.Fd())
	before, err := unix.IoctlGetTermios(fd, unix.TCGETS2)
	if err != nil {
		t.Fatal(err)
	}
	// Not what the driver sets: 9600 baud, two stop bits, hang up on
	// close, a one-byte minimum read.
	before.Cflag = before.Cflag&^unix.CBAUD | unix.B9600 | unix.CSTOPB | unix.HUPCL
	before.Ispeed, before.Ospeed = 9600, 9600
	before.Cc[unix.VMIN], before.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(fd, unix.TCSETS2, before); err != nil {
		t.Fatal(err)
	}
	before, _ = unix.IoctlGetTermios(fd, unix.TCGETS2)
	if _, err := Probe(em.Path, fastProbe); err != nil {
		t.Fatal(err)
	}
	after, err := unix.IoctlGetTermios(fd, unix.TCGETS2)
	if err != nil {
		t.Fatal(err)
	}
	if *after != *before {
		t.Errorf("termios changed:\nbefore %+v\nafter  %+v", *before, *after)
	}
}

func TestProbeOfAPortWhereNothingAnswers(t *testing.T) {
	p, err := emulator.OpenPTY() // nobody reads or writes the other end
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	start := time.Now()
	_, err = Probe(p.Path, fastProbe)
	if !errors.Is(err, cyberglove.ErrNoReply) {
		t.Fatalf("got %v, want no reply", err)
	}
	if d := time.Since(start); d > fastProbe.Limit() {
		t.Errorf("took %v, over the limit %v", d, fastProbe.Limit())
	}
}

func TestProbeFailuresNameThePort(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "ttyUSB9")
	notTTY := filepath.Join(t.TempDir(), "file")
	os.WriteFile(notTTY, nil, 0o600)
	for _, tc := range []struct{ path, says string }{
		{missing, "no such file"},
		{notTTY, "is not a terminal"},
	} {
		_, err := Probe(tc.path, fastProbe)
		if err == nil || !strings.Contains(err.Error(), tc.path) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: got %v, want an error naming it and saying %q", tc.path, err, tc.says)
		}
	}
}

func TestDescribeANamedPort(t *testing.T) {
	p, err := emulator.OpenPTY()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	link := filepath.Join(t.TempDir(), "cyberglove")
	if err := os.Symlink(p.Path, link); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{p.Path, link} {
		got, err := System.Describe(path)
		if err != nil {
			t.Fatal(err)
		}
		if want := (Port{Path: path, Kind: PTY}); got != want || got.Description() != "pseudo-terminal" || Rule(got, Link) != "" {
			t.Errorf("got %+v, want %+v", got, want)
		}
	}
	for _, tc := range []struct{ path, says string }{
		{filepath.Join(t.TempDir(), "ttyUSB9"), "does not exist: is the adapter plugged in?"},
		{t.TempDir(), "is not a serial port (not a character device)"},
		{"/dev/null", "is not a serial port (device 1:3 is not a tty)"},
	} {
		_, err := System.Describe(tc.path)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: got %v, want %q", tc.path, err, tc.says)
		}
	}
}

// A port whose driver call never returns is given up on at the limit.
func TestProbeGivesUpOnAHungPort(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	start := time.Now()
	_, err := within(50*time.Millisecond, "/dev/ttyUSB0", func() (cyberglove.Unit, error) {
		<-block
		return cyberglove.Unit{}, nil
	})
	if !errors.Is(err, ErrHung) || !strings.Contains(err.Error(), "/dev/ttyUSB0") {
		t.Fatalf("got %v, want ErrHung naming the port", err)
	}
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Errorf("gave up after %v, before the limit", d)
	}
	want := cyberglove.Unit{GloveInfo: devices.GloveInfo{Model: "cyberglove", Sensors: 22}, GloveIn: true}
	if u, err := within(time.Minute, "p", func() (cyberglove.Unit, error) { return want, nil }); err != nil || u != want {
		t.Errorf("a probe that returned: got %+v %v", u, err)
	}
}
