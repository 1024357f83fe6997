package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestAPathWithControlCharactersIsPrintedQuoted: a path the user gave
// that holds a newline, ESC or BEL is printed quoted (Go syntax), in an
// error and in a command's success line alike, so that no message spans
// lines and no escape sequence reaches the terminal.
func TestAPathWithControlCharactersIsPrintedQuoted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	raw := func(t *testing.T, r result) {
		t.Helper()
		if strings.ContainsAny(r.stdout+r.stderr, "\x1b\a") {
			t.Errorf("a control character reached the terminal:\nstdout %q\nstderr %q", r.stdout, r.stderr)
		}
	}
	noDir := filepath.Join(dir, "nodir\nX", "x.glove")
	r := runBinary(t, 30*time.Second, "record", "--device", "sim", "--seconds", "0.1", "-o", noDir)
	r.oneLine(t, 1, strconv.Quote(noDir), "not started")
	raw(t, r)

	bel := filepath.Join(dir, "a\ab.glove")
	r = runBinary(t, 30*time.Second, "record", "--device", "sim", "--seconds", "0.1", "-o", bel)
	if r.code != 0 || !strings.Contains(r.stdout, "to "+strconv.Quote(bel)) {
		t.Errorf("record -o: exit %d, %q: %s", r.code, r.stdout, r.stderr)
	}
	raw(t, r)

	escDir := filepath.Join(dir, "o\x1b[2Jd")
	os.Mkdir(escDir, 0o755)
	out := filepath.Join(escDir, "e")
	r = runBinary(t, 60*time.Second, "export", "--scene", "builtin:grasp", "--sim", "--frames", "2", "--out", out)
	if r.code != 0 || !strings.Contains(r.stdout, "to "+strconv.Quote(out)) {
		t.Errorf("export --out: exit %d, %q: %s", r.code, r.stdout, r.stderr)
	}
	raw(t, r)

	plot := filepath.Join(escDir, "p\a.svg")
	r = runBinary(t, 60*time.Second, "bench", "self", "--frames", "1", "--plot", plot)
	if r.code != 0 || !strings.Contains(r.stdout, "plot written to "+strconv.Quote(plot)) {
		t.Errorf("bench self --plot: exit %d, %q: %s", r.code, r.stdout, r.stderr)
	}
	raw(t, r)
}
