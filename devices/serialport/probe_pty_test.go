package serialport_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/gloved/gloved/devices/cyberglove"
	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/devices/emulator/emulatortest"
	"github.com/gloved/gloved/devices/serialport"
)

var fastProbe = serialport.ProbeOpts{Baud: 115200, Reply: 150 * time.Millisecond}

func TestProbeIdentifiesAnEmulatedGloveOnAPTY(t *testing.T) {
	for _, tc := range []struct {
		o    emulator.Opts
		want string
	}{
		{emulator.Opts{Sensors: 22, Right: true}, "CyberGlove (22 sensors, right)"},
		{emulator.Opts{Sensors: 18}, "CyberGlove (18 sensors, left)"},
	} {
		em := emulatortest.Start(t, tc.o, "", emulator.Hangup{})
		got, err := serialport.Probe(em.Path, fastProbe, cyberglove.Probe)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
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
	if _, err := serialport.Probe(em.Path, fastProbe, cyberglove.Probe); err != nil {
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
	_, err = serialport.Probe(p.Path, fastProbe, cyberglove.Probe)
	if !errors.Is(err, serialport.ErrNoReply) {
		t.Fatalf("got %v, want no reply", err)
	}
	if d := time.Since(start); d > fastProbe.Limit() {
		t.Errorf("took %v, over the limit %v", d, fastProbe.Limit())
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
		got, err := serialport.System.Describe(path)
		if err != nil {
			t.Fatal(err)
		}
		if want := (serialport.Port{Path: path, Kind: serialport.PTY}); got != want || got.Description() != "pseudo-terminal" || serialport.Rule(got, serialport.Link) != "" {
			t.Errorf("got %+v, want %+v", got, want)
		}
	}
	for _, tc := range []struct{ path, says string }{
		{filepath.Join(t.TempDir(), "ttyUSB9"), "does not exist: is the adapter plugged in?"},
		{t.TempDir(), "is not a serial port (not a character device)"},
		{"/dev/null", "is not a serial port (device 1:3 is not a tty)"},
	} {
		_, err := serialport.System.Describe(tc.path)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: got %v, want %q", tc.path, err, tc.says)
		}
	}
}

// Open refuses a line without a read timeout (Close could not unblock a
// Read on it), and a port that is not there says what to do.
func TestOpenNeedsATimeoutAndSaysWhatToDo(t *testing.T) {
	if _, err := serialport.Open("/dev/ttyUSB0", 115200, 0); err == nil || !strings.Contains(err.Error(), "a read timeout is required") {
		t.Errorf("no timeout: got %v", err)
	}
	missing := filepath.Join(t.TempDir(), "ttyUSB9")
	if _, err := serialport.Open(missing, 115200, 100*time.Millisecond); err == nil || !strings.Contains(err.Error(), "is the glove's interface unit plugged in") {
		t.Errorf("missing port: got %v", err)
	}
}
