package main

import (
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
