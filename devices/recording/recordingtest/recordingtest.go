package recordingtest

import (
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/recording"
	"github.com/gloved/gloved/devices/sim"
)

// Stamped writes, in a new file of the test's temporary directory, a
// recording of the simulated grasp (22 sensors, right hand) with one
// sample record stamped at each of times, and returns its path and the
// byte offset of each record.
func Stamped(tb testing.TB, times ...time.Duration) (path string, offsets []int64) {
	tb.Helper()
	path = filepath.Join(tb.TempDir(), "stamped.glove")
	rec, err := recording.Create(path, recording.Header{Model: sim.Name, Sensors: 22, Hand: "right"})
	if err != nil {
		tb.Fatal(err)
	}
	g, err := sim.New(sim.Grasp, 22, 10*time.Millisecond, true)
	if err != nil {
		tb.Fatal(err)
	}
	var s devices.Sample
	for _, t := range times {
		if err := g.Read(&s); err != nil {
			tb.Fatal(err)
		}
		s.Time = t
		if err := rec.WriteSample(&s); err != nil {
			tb.Fatal(err)
		}
	}
	if err := rec.Close(); err != nil {
		tb.Fatal(err)
	}
	return path, Offsets(tb, path)
}

// Offsets returns the byte offset of each record of the recording at path.
func Offsets(tb testing.TB, path string) []int64 {
	tb.Helper()
	rr, err := recording.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer rr.Close()
	var offsets []int64
	for {
		rec, err := rr.Next()
		if err == io.EOF {
			return offsets
		}
		if err != nil {
			tb.Fatal(err)
		}
		offsets = append(offsets, rec.Offset)
	}
}

// Reheader rewrites the header of the recording at path as a hand might:
// edit changes its fields (as JSON keys: "created", "hand", ...; a value
// set to nil is left out), and the header is written back with its
// length and checksum right, the records after it as they were.
func Reheader(tb testing.TB, path string, edit func(h map[string]any)) {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	const start = 14 // magic, version, header length
	n := binary.LittleEndian.Uint32(b[10:start])
	h := map[string]any{}
	if err := json.Unmarshal(b[start:start+n], &h); err != nil {
		tb.Fatal(err)
	}
	edit(h)
	for k, v := range h {
		if v == nil {
			delete(h, k)
		}
	}
	js, err := json.Marshal(h)
	if err != nil {
		tb.Fatal(err)
	}
	out := binary.LittleEndian.AppendUint32(append([]byte(nil), b[:10]...), uint32(len(js)))
	out = binary.LittleEndian.AppendUint32(append(out, js...), crc32.ChecksumIEEE(js))
	out = append(out, b[start+n+4:]...)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		tb.Fatal(err)
	}
}
