package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestAnEmulatorNobodyReadsStopsOnASignal: an emulated glove whose pty
// nobody reads fills the pty's buffer and its next write waits for a
// reader; SIGTERM or Ctrl-C still stops it at once, and its --link is
// removed. An OpenGloves glove streams from the start (--joints: long
// lines, so that the buffer fills soon); a CyberGlove unit once told
// to stream (S, at its fastest period). They run side by side.
func TestAnEmulatorNobodyReadsStopsOnASignal(t *testing.T) {
	for _, c := range []struct {
		sig  syscall.Signal
		args []string
		tell string // written to the port before nothing reads it
	}{
		{syscall.SIGTERM, []string{"--model", "opengloves", "--joints"}, ""},
		{syscall.SIGINT, []string{"--model", "opengloves", "--joints", "--splay"}, ""},
		{syscall.SIGTERM, []string{"--model", "cyberglove", "--garbage", "1"}, "t 231 1\rS"},
	} {
		t.Run(strings.Join(c.args[1:], " "), func(t *testing.T) {
			t.Parallel()
			link := filepath.Join(t.TempDir(), "glove")
			emu := exec.Command(binary(t), append([]string{"emulate", "--link", link}, c.args...)...)
			var emuErr bytes.Buffer
			emu.Stderr = &emuErr
			if err := emu.Start(); err != nil {
				t.Fatal(err)
			}
			tell(t, emu, link, c.tell)
			waitUntilBlocked(t, emu, c.args)
			emu.Process.Signal(c.sig)
			done := make(chan error, 1)
			go func() { done <- emu.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("%v after %v: %v: %s", c.args, c.sig, err, emuErr.String())
				}
			case <-time.After(5 * time.Second): // a hang detector, not a speed claim
				emu.Process.Kill()
				<-done
				t.Errorf("%v: still running after %v: blocked writing to a pty nobody reads", c.args, c.sig)
			}
			if _, err := os.Lstat(link); err == nil {
				t.Errorf("%v: the emulator left its link %s behind", c.args, link)
			}
		})
	}
}

// tell writes s to the pty link points at, once it does, and closes it
// again: nothing reads it.
func tell(t *testing.T, emu *exec.Cmd, link, s string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if target, _ := os.Readlink(link); strings.HasPrefix(target, "/dev/pts/") {
			f, err := os.OpenFile(link, os.O_WRONLY|syscall.O_NOCTTY, 0)
			if err == nil {
				_, err = f.WriteString(s)
				f.Close()
				if err != nil {
					t.Fatal(err)
				}
				return
			}
		}
		if time.Now().After(deadline) {
			emu.Process.Kill()
			emu.Wait()
			t.Fatalf("the emulator never linked %s to its pty", link)
		}
	}
}

// waitUntilBlocked returns once the bytes the emulator has written
// (its wchar in /proc) stop growing for a fifth of a second, ten of
// its periods at least: its write waits for a reader.
func waitUntilBlocked(t *testing.T, emu *exec.Cmd, args []string) {
	t.Helper()
	io := fmt.Sprintf("/proc/%d/io", emu.Process.Pid)
	last, same := "", 0
	for deadline := time.Now().Add(20 * time.Second); same < 10; time.Sleep(20 * time.Millisecond) {
		b, err := os.ReadFile(io)
		if err != nil {
			t.Fatal(err)
		}
		_, wchar, _ := strings.Cut(string(b), "wchar:")
		wchar, _, _ = strings.Cut(wchar, "\n")
		if wchar == last {
			same++
		} else {
			same = 0
		}
		last = wchar
		if time.Now().After(deadline) {
			emu.Process.Kill()
			emu.Wait()
			t.Fatalf("%v: the emulator never filled the pty (wrote %s bytes)", args, wchar)
		}
	}
}
