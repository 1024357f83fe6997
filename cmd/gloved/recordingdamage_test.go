package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestADamagedRecordingIsSaidOnce: a recording cut inside its header is
// refused by dump, replay, contacts and export in one line that names
// the file once and says "recording damaged" once ("F: recording damaged:
// header cut short after 20 of its N bytes (... record the session
// again)"), and by the daemon as its config's
// error, naming the key (exit 2, as --check); one
// damaged after its samples began is warned of, by each, in the same
// words.
func TestADamagedRecordingIsSaidOnce(t *testing.T) {
	t.Parallel()
	whole, err := os.ReadFile(simRecording(t, 50))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cut := filepath.Join(dir, "cut.glove")
	if err := os.WriteFile(cut, whole[:20], 0o644); err != nil {
		t.Fatal(err)
	}
	// The last record's checksum no longer matches.
	flipped := append([]byte(nil), whole...)
	flipped[len(flipped)-6] ^= 0xff
	mid := filepath.Join(dir, "mid.glove")
	if err := os.WriteFile(mid, flipped, 0o644); err != nil {
		t.Fatal(err)
	}
	once := func(t *testing.T, line string) {
		t.Helper()
		if n := strings.Count(line, "recording"); n != 1 {
			t.Errorf("%q says recording %d times, want once", line, n)
		}
	}
	for _, path := range []string{cut, mid} {
		for _, args := range [][]string{
			{"dump", path},
			{"replay", path, "--speed", "max", "--target", freeUDP(t)},
			{"contacts", "--scene", "builtin:grasp", "--recording", path},
			{"export", "--scene", "builtin:grasp", "--recording", path, "--out", t.TempDir()},
		} {
			r := runBinary(t, 30*time.Second, args...)
			line := strings.TrimSpace(r.stderr)
			if path == cut {
				r.oneLine(t, 1, "gloved: "+path+": recording damaged: header cut short after 20 of its ", "record the session again")
			} else if !strings.Contains(line, path+": recording damaged: record at byte ") && !strings.Contains(line, `"error":"recording damaged: record at byte `) {
				t.Errorf("gloved %s: exit %d, stderr %q: want the damage said", args[0], r.code, line)
			}
			once(t, strings.NewReplacer(path, "F", "the recording is damaged", "").Replace(line))
		}
	}
	r := runBinary(t, 30*time.Second, "run", "-c", handConfig(t, dir, "device = \"replay\"\nrecording = \""+cut+"\"", freeUDP(t), ""), "--for", "3s", "--status=false")
	r.oneLine(t, 2, "hand[0] (right).recording: "+cut+": recording damaged: header cut short after 20 of its ", "record the session again")
}
