package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
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
