package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/devices/serialport"
)

// portLine returns the line of `gloved ports` output that starts with
// path, split into its columns (two or more spaces apart).
func portLine(t *testing.T, out, path string) []string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, path+" ") {
			return regexp.MustCompile(`  +`).Split(strings.TrimSpace(line), -1)
		}
	}
	t.Fatalf("no line for %s in:\n%s", path, out)
	return nil
}

// emulatedGlove starts `gloved emulate` with args and returns the link
// its pty is reached by and the pty's own path.
func emulatedGlove(t *testing.T, args ...string) (link, pty string) {
	t.Helper()
	link = filepath.Join(t.TempDir(), "cyberglove")
	emu := startGloved(t, "emulate", append([]string{"emulate", "--link", link}, args...)...)
	emu.expect(t, " on ")
	waitLink(t, emu, link)
	pty, err := os.Readlink(link)
	if err != nil {
		t.Fatal(err)
	}
	return link, pty
}

// TestPortsListsAndProbesAnEmulatedGlove: the emulator's pty, named by
// its link or its own path, is listed; --probe finds the glove on it (a
// CyberGlove, or an OpenGloves glove streaming its lines, waiting for
// an answer after each, past the CyberGlove's probe), and says "no
// answer" of a pty where nothing answers.
func TestPortsListsAndProbesAnEmulatedGlove(t *testing.T) {
	t.Parallel()
	right, rightPTY := emulatedGlove(t)
	left, _ := emulatedGlove(t, "--sensors", "18", "--left")
	open, _ := emulatedGlove(t, "--model", "opengloves", "--force-feedback")
	// Garbage in every line: not one an OpenGloves driver takes.
	garbled, _ := emulatedGlove(t, "--model", "opengloves", "--garbage", "1")
	silent, err := emulator.OpenPTY() // nothing reads or answers its other end
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()

	r := runBinary(t, 10*time.Second, "ports", right, rightPTY)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, p := range []string{right, rightPTY} {
		if got := portLine(t, r.stdout, p); strings.Join(got, "|") != p+"|-|-|pseudo-terminal|yes" {
			t.Errorf("%s: got columns %q", p, got)
		}
	}
	if strings.Contains(r.stdout, "GLOVE") || strings.Contains(r.stdout, "udev rules") {
		t.Errorf("without --probe and with only ptys (nothing for udev to match):\n%s", r.stdout)
	}

	// A second for each reply: the emulators are processes of their own,
	// which a loaded machine (the suite's other packages, a browser test)
	// can keep from answering within the default 300 ms.
	r = runBinary(t, 20*time.Second, "ports", "--probe", "--timeout", "1s", right, left, silent.Path, rightPTY, open, garbled)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for p, want := range map[string]string{
		right:       "CyberGlove (22 sensors, right)",
		rightPTY:    "CyberGlove (22 sensors, right)", // probed once with its link
		left:        "CyberGlove (18 sensors, left)",
		silent.Path: "no answer (at 115200 baud)",
		open:        "OpenGloves glove (alpha encoding)",
		// Something answers that no driver takes: each says why (only
		// the CyberGlove's drain was blamed).
		garbled: "no glove identified (cyberglove: drain: the unit kept sending after ^C; opengloves: no reply: no alpha-encoded line within 3s)",
	} {
		if got := portLine(t, r.stdout, p); got[len(got)-1] != want {
			t.Errorf("%s: got %q, want %q\n%s", p, got[len(got)-1], want, r.stdout)
		}
	}
	// The emulator was only asked; it streams nothing, and answers the
	// next program as the first.
	r = runBinary(t, 20*time.Second, "ports", "--probe", "--timeout", "1s", right)
	if got := portLine(t, r.stdout, right); got[len(got)-1] != "CyberGlove (22 sensors, right)" {
		t.Errorf("second probe: %q", got)
	}
}

// Without arguments, every serial port this machine has (as the
// serialport package finds them) is listed, and none is opened.
func TestPortsListsThisMachinesPorts(t *testing.T) {
	ports, err := serialport.System.List()
	if err != nil {
		t.Skipf("no sysfs here: %v", err)
	}
	r := runBinary(t, 10*time.Second, "ports")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if len(ports) == 0 && !strings.HasPrefix(r.stdout, "no serial ports here") {
		t.Errorf("no ports, and it did not say so:\n%s", r.stdout)
	}
	for _, p := range ports {
		got := portLine(t, r.stdout, p.Path)
		if got[1] != p.USBID() || !strings.HasPrefix(got[3], p.Description()) {
			t.Errorf("%s: got %q for %+v", p.Path, got, p)
		}
		if rule := serialport.Rule(p, serialport.Link); !p.Console && !strings.Contains(r.stdout, "# "+p.Path+": "+p.Description()+"\n"+rule+"\n") {
			t.Errorf("%s: its udev rule is not printed:\n%s", p.Path, r.stdout)
		}
	}
}

func TestPortsFailuresSayWhatIsWrong(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	os.WriteFile(file, []byte("x"), 0o644)
	tests := []struct {
		args []string
		code int
		says []string
	}{
		{[]string{"ports", filepath.Join(dir, "ttyUSB7")}, 1, []string{"ttyUSB7 does not exist", "plugged in"}},
		{[]string{"ports", "--probe", file}, 1, []string{"notes.txt is not a serial port"}},
		{[]string{"ports", "/dev/null"}, 1, []string{"/dev/null is not a serial port", "not a tty"}},
		{[]string{"ports", "--baud", "12345"}, 2, []string{"--baud 12345", "115200"}},
		{[]string{"ports", "--timeout", "0s"}, 2, []string{"--timeout 0s"}},
		{[]string{"ports", "--prob"}, 2, []string{"-prob"}},
	}
	for _, tc := range tests {
		runBinary(t, 10*time.Second, tc.args...).oneLine(t, tc.code, tc.says...)
	}
}

// TestPortsAsAUserWithoutAccess runs `gloved ports` as nobody (the test
// runs as root, which may open anything): a port nobody may not open is
// marked, with what to do, and so is nobody's missing dialout membership.
func TestPortsAsAUserWithoutAccess(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run the binary as another user")
	}
	dialout, ok := serialport.DialoutGID()
	if !ok {
		t.Skip("no dialout group here")
	}
	dir, err := os.MkdirTemp("", "gloved-nobody-") // t.TempDir's parent is closed to others
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	bin := filepath.Join(dir, "gloved")
	data, err := os.ReadFile(binary(t))
	if err != nil || os.WriteFile(bin, data, 0o755) != nil {
		t.Fatal(err)
	}
	_, pty := emulatedGlove(t)
	if err := os.Chown(pty, 0, int(dialout)); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(pty, 0o660); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "ports", "--probe", pty)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	got := portLine(t, string(out), pty)
	if got[4] != "no" || got[5] != "cannot open it: permission denied (see the note below)" {
		t.Errorf("columns %q", got)
	}
	says := "\nnote: " + pty + ": nobody is not in group dialout, which may open it: sudo usermod -aG dialout nobody, then log out and back in\n"
	if !strings.HasSuffix(string(out), says) {
		t.Errorf("does not end saying %q:\n%s", says, out)
	}

	// A port nobody may open (its own pty): the general dialout note.
	other, err := emulator.OpenPTY()
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	os.Chown(other.Path, 65534, 65534)
	cmd = exec.Command(bin, "ports", other.Path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	if out, err = cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	says = "\nnote: nobody is not in the dialout group, which serial ports belong to: sudo usermod -aG dialout nobody, then log out and back in\n"
	if got := portLine(t, string(out), other.Path); got[4] != "yes" || !strings.HasSuffix(string(out), says) {
		t.Errorf("does not end saying %q:\n%s", says, out)
	}
}
