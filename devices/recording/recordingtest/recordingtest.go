package recordingtest

import (
	"io"
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
