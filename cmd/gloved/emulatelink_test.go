package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gloved/gloved/devices/recording/recordingtest"
)

// TestEmulateLinkRefusesAPathThatIsNotAnEmulatorsLink: --link never
// replaces a user's file, a symlink to one (udev's /dev/cyberglove is
// one) or a live pty's link, and never removes a .NAME.tmp beside it:
// one line, exit 2, everything as it was.
func TestEmulateLinkRefusesAPathThatIsNotAnEmulatorsLink(t *testing.T) {
	dir := t.TempDir()
	precious := filepath.Join(dir, "precious")
	if err := os.WriteFile(precious, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	symlink := filepath.Join(dir, "cyberglove")
	if err := os.Symlink(precious, symlink); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join(dir, "absent"), dangling); err != nil {
		t.Fatal(err)
	}
	live := filepath.Join(dir, "live")
	if err := os.Symlink("/dev/pts/ptmx", live); err != nil {
		t.Fatal(err)
	}
	for _, link := range []string{precious, symlink, dangling, live} {
		tmp := filepath.Join(dir, "."+filepath.Base(link)+".tmp")
		if err := os.WriteFile(tmp, []byte("mine\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		before, _ := os.Readlink(link)
		runBinary(t, 10*time.Second, "emulate", "--link", link).oneLine(t, 2, "--link "+link+" exists and is not an emulator's link: choose another path or remove it")
		runBinary(t, 10*time.Second, "emulate", "--model", "opengloves", "--link", link).oneLine(t, 2, "--link "+link+" exists and is not an emulator's link")
		if after, _ := os.Readlink(link); after != before {
			t.Errorf("%s now links to %q, was %q", link, after, before)
		}
		if b, err := os.ReadFile(tmp); err != nil || string(b) != "mine\n" {
			t.Errorf("%s: %q, %v: the emulator touched a file it did not make", tmp, b, err)
		}
	}
	if b, err := os.ReadFile(precious); err != nil || string(b) != "precious\n" {
		t.Errorf("precious: %q, %v", b, err)
	}
}

// TestEmulateReplacesAStaleLinkAndRemovesOnlyItsOwn: a dangling link to
// a pty that is gone (a crashed emulator's) is replaced; on exit the
// emulator removes its link, but not a file that took the link's place
// meanwhile, and never a .NAME.tmp beside it.
func TestEmulateReplacesAStaleLinkAndRemovesOnlyItsOwn(t *testing.T) {
	for _, replaced := range []bool{false, true} {
		dir := t.TempDir()
		link, tmp := filepath.Join(dir, "glove"), filepath.Join(dir, ".glove.tmp")
		if err := os.Symlink("/dev/pts/987654", link); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(tmp, []byte("mine\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		emu, emuErr := startLinkedEmulator(t, link, "/dev/pts/987654")
		if replaced {
			if err := os.Remove(link); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(link, []byte("theirs\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		emu.Process.Signal(syscall.SIGINT)
		if err := emu.Wait(); err != nil {
			t.Fatalf("emulate after SIGINT: %v: %s", err, emuErr.String())
		}
		b, err := os.ReadFile(link)
		switch {
		case replaced && (err != nil || string(b) != "theirs\n"):
			t.Errorf("the file that replaced the link: %q, %v: the emulator removed it", b, err)
		case !replaced:
			if _, err := os.Lstat(link); err == nil {
				t.Errorf("the emulator left its link %s behind", link)
			}
		}
		if b, err := os.ReadFile(tmp); err != nil || string(b) != "mine\n" {
			t.Errorf("%s: %q, %v", tmp, b, err)
		}
		if left, _ := filepath.Glob(filepath.Join(dir, ".glove.*.tmp")); len(left) > 0 {
			t.Errorf("temporary links left: %v", left)
		}
	}
}

// TestEmulateLogsNeverEmptyAnExistingFile: --stamps and --servo-log
// refuse an existing file, as calibrate -o does, unless --force.
func TestEmulateLogsNeverEmptyAnExistingFile(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old")
	if err := os.WriteFile(old, []byte("kept\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runBinary(t, 10*time.Second, "emulate", "--stamps", old).oneLine(t, 1, "--stamps "+old+" exists: give --force to overwrite it")
	runBinary(t, 10*time.Second, "emulate", "--model", "opengloves", "--force-feedback", "--servo-log", old).oneLine(t, 1, "--servo-log "+old+" exists: give --force to overwrite it")
	runBinary(t, 10*time.Second, "emulate", "--model", "opengloves", "--force-feedback", "--stamps", filepath.Join(dir, "new"), "--servo-log", old).oneLine(t, 1, "--servo-log "+old+" exists")
	if b, err := os.ReadFile(old); err != nil || string(b) != "kept\n" {
		t.Fatalf("old: %q, %v", b, err)
	}
	emu := exec.Command(binary(t), "emulate", "--stamps", old, "--force")
	if err := emu.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if b, _ := os.ReadFile(old); !bytes.HasPrefix(b, []byte("kept")) {
			break
		}
		if time.Now().After(deadline) {
			emu.Process.Kill()
			emu.Wait()
			t.Fatal("--force never overwrote the file")
		}
	}
	emu.Process.Signal(syscall.SIGINT)
	if err := emu.Wait(); err != nil {
		t.Fatalf("emulate --force after SIGINT: %v", err)
	}
}

// TestEmulateRemovesItsLinkWhenItsTerminalCloses: an emulator whose
// terminal closes gets SIGHUP; it stops as on Ctrl-C or SIGTERM and
// removes its --link, which was left pointing at a freed /dev/pts/N.
func TestEmulateRemovesItsLinkWhenItsTerminalCloses(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM} {
		link := filepath.Join(t.TempDir(), "glove")
		emu, emuErr := startLinkedEmulator(t, link, "")
		emu.Process.Signal(sig)
		if err := emu.Wait(); err != nil {
			t.Errorf("emulate after %v: %v: %s", sig, err, emuErr.String())
		}
		if _, err := os.Lstat(link); err == nil {
			t.Errorf("after %v the emulator left its link %s behind", sig, link)
		}
	}
}

// startLinkedEmulator starts `gloved emulate --link link` and returns once
// link points at a pty other than stale, with what it writes to standard
// error.
func startLinkedEmulator(t *testing.T, link, stale string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	emu := exec.Command(binary(t), "emulate", "--link", link)
	var emuErr bytes.Buffer
	emu.Stderr = &emuErr
	if err := emu.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if target, _ := os.Readlink(link); target != stale && strings.HasPrefix(target, "/dev/pts/") {
			return emu, &emuErr
		}
		if time.Now().After(deadline) {
			emu.Process.Kill()
			emu.Wait()
			t.Fatalf("the emulator never linked %s to its pty: %s", link, emuErr.String())
		}
	}
}

// TestEmulateGivesEachOfItsFilesItsOwnPath: one path for two of emulate's
// outputs (--link, --stamps, --servo-log), or for an output and an input
// (--source, --calibration, --script), is refused in one line naming
// both flags, before any file is made: the two streams went into one
// file, or it was refused only after being created empty.
func TestEmulateGivesEachOfItsFilesItsOwnPath(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := filepath.Join(dir, "s.txt")
	rec := filepath.Join(dir, "r.glove")
	b, err := os.ReadFile("../../testdata/recordings/grasp.glove")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rec, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		says []string
	}{
		{[]string{"--stamps", s, "--link", s}, []string{"--link and --stamps both name " + s}},
		{[]string{"--model", "opengloves", "--force-feedback", "--stamps", s, "--servo-log", s, "--force"}, []string{"--stamps and --servo-log both name " + s}},
		{[]string{"--source", rec, "--stamps", rec, "--force"}, []string{"--stamps", "--source"}},
	} {
		runBinary(t, 10*time.Second, append([]string{"emulate"}, tc.args...)...).oneLine(t, 2, tc.says...)
	}
	if _, err := os.Stat(s); err == nil {
		t.Errorf("%s was made", s)
	}
	if after, err := os.ReadFile(rec); err != nil || !bytes.Equal(after, b) {
		t.Errorf("the recording changed (%v)", err)
	}
}

// TestEmulateSaysARecordingIsOfAnotherGlove: --source naming a recording
// of a glove that is not a CyberGlove (a tracker's joint angles, no
// sensors) says so in one line, naming the recording's glove: it said
// "0 sensors: CyberGlove units have 18 or 22".
func TestEmulateSaysARecordingIsOfAnotherGlove(t *testing.T) {
	t.Parallel()
	rec := filepath.Join(t.TempDir(), "vmc.glove")
	b, err := os.ReadFile("../../testdata/recordings/grasp.glove")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rec, b, 0o644); err != nil {
		t.Fatal(err)
	}
	recordingtest.Reheader(t, rec, func(h map[string]any) { h["model"], h["sensors"] = "vmc", 0 })
	runBinary(t, 10*time.Second, "emulate", "--source", rec).oneLine(t, 2, "--source "+rec+" is a recording of a vmc glove (0 sensors): emulate plays a CyberGlove's sensor readings (18 or 22)")
}

// TestEmulateSaysWhyAFlagIsNotForAnOpenGlovesGlove: each CyberGlove flag
// given to an emulated OpenGloves glove is refused in one line saying why
// of that flag (all four said "its USB is unplugged with --hangup-at").
func TestEmulateSaysWhyAFlagIsNotForAnOpenGlovesGlove(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		why  string
	}{
		{[]string{"--sensors", "18"}, "--splay, --joints and --max"},
		{[]string{"--left"}, "[[hand]] side"},
		{[]string{"--lose", "0.1"}, "--garbage"},
		{[]string{"--unplug-at", "1"}, "--hangup-at"},
	} {
		runBinary(t, 10*time.Second, append([]string{"emulate", "--model", "opengloves"}, tc.args...)...).
			oneLine(t, 2, tc.args[0]+": not for an emulated OpenGloves glove", tc.why)
	}
}
