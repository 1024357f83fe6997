package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/devices/emulator/emulatortest"
)

var interruptedLine = regexp.MustCompile(`^interrupted after (\d+\.\d) s: recorded (\d+) samples to (\S+) \(22-sensor right glove\)`)

// TestRecordInterruptedSaysWhenAndHowMany: `gloved record --seconds 60`
// from an emulated glove, stopped by Ctrl-C (SIGINT) once it has
// recorded, exits 0 saying that it was interrupted, after how long (the
// time it ran, not the 60 s asked for) and how many samples it recorded:
// the recording holds them.
func TestRecordInterruptedSaysWhenAndHowMany(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	em := emulatortest.Start(t, emulator.Opts{Sensors: 22, Right: true}, filepath.Join(dir, "glove"), emulator.Hangup{})
	out := filepath.Join(dir, "cut.glove")
	began := time.Now()
	p := startGloved(t, "record", "record", "--port", em.Path, "--seconds", "60", "-o", out)
	for deadline := time.Now().Add(20 * time.Second); len(em.Records()) < 30; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the glove streamed %d records in 20 s; record said %q %q", len(em.Records()), p.out.String(), p.errs.String())
		}
	}
	p.cmd.Process.Signal(syscall.SIGINT)
	if code := p.exit(t); code != 0 {
		t.Fatalf("record exited %d after SIGINT: %s", code, p.errs.String())
	}
	ran := time.Since(began)
	m := interruptedLine.FindStringSubmatch(p.out.String())
	if m == nil || m[3] != out {
		t.Fatalf("record said %q, want %q", p.out.String(), interruptedLine)
	}
	took, _ := strconv.ParseFloat(m[1], 64)
	samples, _ := strconv.Atoi(m[2])
	if !(took > 0 && took <= ran.Seconds()+0.05) {
		t.Errorf("record says it ran %v s, but it was interrupted %.2f s after it started", took, ran.Seconds())
	}
	// The parser may hold whole records past the last sample read.
	if recorded := len(dumpLines(t, out)); samples == 0 || samples > recorded {
		t.Errorf("record says %d samples, the recording holds %d", samples, recorded)
	}
}

// TestARecordingWithoutASampleLeavesNoFile: a recording can hold no
// sample, a file every reader refuses, so `gloved record` refuses
// --seconds shorter than one sample period before it opens the glove,
// and a recording that ends without a sample anyway (a glove whose
// records are all lost) is removed, with one line and a non-zero exit.
func TestARecordingWithoutASampleLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	short := filepath.Join(dir, "short.glove")
	runBinary(t, 20*time.Second, "record", "--device", "sim", "--seconds", "1e-9", "-o", short).
		oneLine(t, 2, "--seconds 1e-09: shorter than one sample period (0.01 s at --rate 100)")
	runBinary(t, 20*time.Second, "record", "--device", "sim", "--rate", "50", "--seconds", "0.015", "-o", short).
		oneLine(t, 2, "--seconds 0.015: shorter than one sample period (0.02 s at --rate 50)")
	if _, err := os.Lstat(short); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused recording left %s: %v", short, err)
	}

	link := startEmulator(t, dir, "--lose", "1")
	lost := filepath.Join(dir, "lost.glove")
	runBinary(t, 20*time.Second, "record", "--port", link, "--seconds", "0.3", "-o", lost).
		oneLine(t, 1, "record: no sample in", "removed "+lost, "is the glove streaming?")
	if _, err := os.Lstat(lost); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a recording without a sample was left at %s: %v", lost, err)
	}
}
