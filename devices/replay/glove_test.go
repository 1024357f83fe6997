package replay

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove"
	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/devices/emulator/emulatortest"
	"github.com/gloved/gloved/devices/recording"
	"github.com/gloved/gloved/devices/sim"
)

// recordLive drives the glove on an emulator for n samples with a recorder
// on the tap, and returns the samples the live driver returned.
func recordLive(t *testing.T, path string, n int, garbage float64) []devices.Sample {
	t.Helper()
	live, _ := recordLiveFrom(t, path, n, garbage)
	return live
}

func recordLiveFrom(t *testing.T, path string, n int, garbage float64) ([]devices.Sample, *emulatortest.Emulated) {
	return recordModel(t, cyberglove.ModelII, path, n, garbage)
}

// recordModel is recordLiveFrom for a unit of either model.
func recordModel(t *testing.T, model cyberglove.Model, path string, n int, garbage float64) ([]devices.Sample, *emulatortest.Emulated) {
	t.Helper()
	em := emulatortest.Start(t, emulator.Opts{Model: model, Sensors: 22, Right: true, Garbage: garbage, Seed: 9, Period3: 4 * time.Millisecond}, "", emulator.Hangup{})
	rec, err := recording.Create(path, recording.Header{Model: string(model), Sensors: 22, Hand: "right", Mode: "stream", StatusByte: model == cyberglove.ModelII, Source: em.Path, Calibration: "# none\n"})
	if err != nil {
		t.Fatal(err)
	}
	o := cyberglove.DefaultOpts
	o.Port, o.Period, o.Model = em.Path, 4*time.Millisecond, model
	var tapErr error
	o.Tap = func(at time.Duration, b []byte) {
		if err := rec.WriteRaw(at, b); err != nil && tapErr == nil {
			tapErr = err
		}
	}
	g, err := cyberglove.Open(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.WriteWrist(0, [7]float64{1, 0, 0, 0, 0.1, 1.2, -0.3}); err != nil {
		t.Fatal(err)
	}
	var live []devices.Sample
	var s devices.Sample
	for len(live) < n {
		if err := g.Read(&s); err != nil {
			if devices.Transient(err) {
				continue
			}
			t.Fatal(err)
		}
		live = append(live, s)
	}
	g.Close()
	if err := rec.Close(); err != nil || tapErr != nil {
		t.Fatal(err, tapErr)
	}
	return live, em
}

func replayAll(t *testing.T, path string) ([]devices.Sample, *Glove) {
	t.Helper()
	r, err := Open(path, false)
	if err != nil {
		t.Fatal(err)
	}
	var out []devices.Sample
	var s devices.Sample
	for {
		err := r.Read(&s)
		if errors.Is(err, devices.ErrEnd) {
			return out, r
		}
		if err != nil && !devices.Transient(err) {
			t.Fatal(err)
		}
		if err == nil {
			out = append(out, s)
		}
	}
}

func TestRecordingReplaysWhatTheDriverSaw(t *testing.T) {
	for _, model := range []cyberglove.Model{cyberglove.ModelII, cyberglove.ModelIII} {
		t.Run(string(model), func(t *testing.T) { replaysWhatTheDriverSaw(t, model) })
	}
}

func replaysWhatTheDriverSaw(t *testing.T, model cyberglove.Model) {
	path := filepath.Join(t.TempDir(), "session.glove")
	live, em := recordModel(t, model, path, 200, 0.1)
	replayed, r := replayAll(t, path)
	// What the emulator sent, what the driver saw and what the file
	// replays agree to the value.
	var raws [][]uint16
	for _, s := range replayed {
		raws = append(raws, slices.Clone(s.Sensors()))
	}
	emulatortest.CheckSubsequence(t, raws, em.Values())
	if r.Warning() != nil {
		t.Fatalf("clean recording warned: %v", r.Warning())
	}
	if len(replayed) < len(live) {
		t.Fatalf("replay gave %d samples, live %d", len(replayed), len(live))
	}
	for i := range live {
		if replayed[i] != live[i] {
			t.Fatalf("sample %d: replay %+v, live %+v", i, replayed[i], live[i])
		}
	}
	if pose, ok := r.Wrist(); !ok || pose != [7]float64{1, 0, 0, 0, 0.1, 1.2, -0.3} {
		t.Errorf("wrist pose %v %v", pose, ok)
	}
	if h := r.Header(); h.Sensors != 22 || h.Hand != "right" || h.Calibration != "# none\n" || h.Created == "" {
		t.Errorf("header %+v", h)
	}
}

func TestDamagedRecordingReplaysUpToItsLastGoodRecord(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "session.glove")
	recordLive(t, path, 60, 0)
	whole, _ := replayAll(t, path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Cut inside records (a cut on a record boundary is a clean, shorter
	// recording): the last byte, and a few bytes into records a third and
	// two thirds of the way.
	rr, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var offsets []int
	for {
		rec, err := rr.Next()
		if err != nil {
			break
		}
		offsets = append(offsets, int(rec.Offset))
	}
	rr.Close()
	cuts := []int{len(data) - 1, offsets[len(offsets)/3] + 5, offsets[2*len(offsets)/3] + 15, offsets[len(offsets)/2] + 1}
	for _, cut := range cuts {
		p := filepath.Join(dir, "cut.glove")
		os.WriteFile(p, data[:cut], 0o644)
		got, r := replayAll(t, p)
		if r.Warning() == nil || !errors.Is(r.Warning(), recording.ErrCorrupt) || !strings.Contains(r.Warning().Error(), "at byte") {
			t.Errorf("cut at %d: warning %v", cut, r.Warning())
		}
		if len(got) == 0 || len(got) > len(whole) {
			t.Errorf("cut at %d: %d samples of %d", cut, len(got), len(whole))
		}
		for i := range got {
			if got[i] != whole[i] {
				t.Fatalf("cut at %d: sample %d differs", cut, i)
			}
		}
	}
	// A flipped byte in the middle: replay stops before that record.
	bad := bytes.Clone(data)
	bad[len(bad)/2] ^= 0x40
	p := filepath.Join(dir, "flipped.glove")
	os.WriteFile(p, bad, 0o644)
	got, r := replayAll(t, p)
	if !errors.Is(r.Warning(), recording.ErrCorrupt) || len(got) >= len(whole) {
		t.Errorf("flipped byte: %d samples, warning %v", len(got), r.Warning())
	}
}

// TestReplayRefusesWhatNoDriverReads: a recording of a glove model no
// driver here reads (a later gloved's), or of a sensor count its driver
// has no layout of, does not open, naming the file and what is wrong; a
// file that is no recording names the file; the port bytes of a glove
// that records samples end the replay with a warning.
func TestReplayRefusesWhatNoDriverReads(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		h    recording.Header
		says string
	}{
		{recording.Header{Model: "cyberglove4", Sensors: 22}, `glove model "cyberglove4": this gloved reads recordings of cyberglove, cyberglove3, opengloves, sim`},
		{recording.Header{Model: "replay", Sensors: 22}, `glove model "replay"`},
		{recording.Header{Model: "cyberglove3", Sensors: 20}, "header: a cyberglove3 has no layout of 20 sensors: it has 18 or 22"},
	} {
		p := filepath.Join(dir, tc.h.Model+".glove")
		rec, err := recording.Create(p, tc.h)
		if err != nil {
			t.Fatal(err)
		}
		rec.Close()
		if _, err := Open(p, false); err == nil || !strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), p) {
			t.Errorf("%+v: got %v, want an error naming the file and saying %q", tc.h, err, tc.says)
		}
	}
	text := filepath.Join(dir, "text")
	os.WriteFile(text, []byte("hello, this is not a recording"), 0o644)
	if _, err := Open(text, false); err == nil || !strings.Contains(err.Error(), text) {
		t.Errorf("a text file: got %v, want an error naming it", err)
	}
	p := filepath.Join(dir, "simbytes.glove")
	rec, _ := recording.Create(p, recording.Header{Model: "sim", Sensors: 22})
	rec.WriteRaw(0, []byte("S\x01\x00"))
	rec.Close()
	if got, r := replayAll(t, p); len(got) != 0 || !errors.Is(r.Warning(), recording.ErrCorrupt) || !strings.Contains(r.Warning().Error(), "which records samples") {
		t.Errorf("port bytes of a sim: %d samples, warning %v", len(got), r.Warning())
	}
}

func TestSampleRecordsRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sim.glove")
	rec, err := recording.Create(path, recording.Header{Model: "sim", Sensors: 18, Hand: "left"})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := sim.New(sim.Pinch, 18, 10*time.Millisecond, true)
	var want []devices.Sample
	var s devices.Sample
	for range 50 {
		g.Read(&s)
		rec.WriteSample(&s)
		want = append(want, s)
	}
	rec.Close()
	got, r := replayAll(t, path)
	if len(got) != 50 || r.Warning() != nil || r.GloveInfo().Right {
		t.Fatalf("%d samples, warning %v, info %+v", len(got), r.Warning(), r.GloveInfo())
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("sample %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

func FuzzReplay(f *testing.F) {
	dir := f.TempDir()
	path := filepath.Join(dir, "seed.glove")
	rec, _ := recording.Create(path, recording.Header{Model: "cyberglove", Sensors: 22, Hand: "right", Mode: "stream"})
	rec.WriteRaw(1, cyberglove.AppendRecord(nil, 'S', cyberglove.Format{Sensors: 22}, []byte("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16"), 0, 0))
	rec.WriteRaw(2, nil)
	rec.WriteWrist(3, [7]float64{1, 0, 0, 0, 0, 0, 0})
	rec.Close()
	seed, _ := os.ReadFile(path)
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := New(bytes.NewReader(b), false)
		if err != nil {
			return
		}
		var s devices.Sample
		for range 10000 {
			err := r.Read(&s)
			if errors.Is(err, devices.ErrEnd) {
				return
			}
			if err == nil && (s.N != 18 && s.N != 22) {
				t.Fatalf("sample with %d sensors", s.N)
			}
		}
	})
}

// TestReplayFaultsMayBeReadWhilePlaying: as for the live driver, a metrics
// scrape may read a replay's counters while it plays (run with -race).
func TestReplayFaultsMayBeReadWhilePlaying(t *testing.T) {
	r, err := Open("../../testdata/recordings/grasp.glove", false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		var s devices.Sample
		for !errors.Is(r.Read(&s), devices.ErrEnd) {
		}
	}()
	for {
		select {
		case <-done:
			return
		default:
			r.Faults()
		}
	}
}

// TestReadSamples: every sample of an intact recording, and of a damaged
// one those before the damage, with the damage as a warning.
func TestReadSamples(t *testing.T) {
	whole, warning, err := ReadSamples("../../testdata/recordings/grasp.glove")
	if err != nil || warning != nil || len(whole) != 201 {
		t.Fatalf("%d samples, warning %v, error %v; want 201, none, none", len(whole), warning, err)
	}
	data, _ := os.ReadFile("../../testdata/recordings/grasp.glove")
	half := filepath.Join(t.TempDir(), "half.glove")
	os.WriteFile(half, data[:len(data)/2], 0o644)
	part, warning, err := ReadSamples(half)
	if err != nil || !errors.Is(warning, recording.ErrCorrupt) || len(part) == 0 || len(part) >= len(whole) || part[len(part)-1] != whole[len(part)-1] {
		t.Fatalf("half: %d samples, warning %v, error %v", len(part), warning, err)
	}
}

// TestRewindPlaysTheFileItOpenedWhateverItsPathNamesNow: a rewound replay
// plays the file it opened again, sample for sample and numbered from 0,
// although its path was deleted and another file put there; Close, after
// the pass ended, closes that file.
func TestRewindPlaysTheFileItOpenedWhateverItsPathNamesNow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.glove")
	recordModel(t, cyberglove.ModelII, path, 60, 0)
	first, r := replayAll(t, path)
	defer r.Close()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("not a recording"), 0o644); err != nil {
		t.Fatal(err)
	}
	for pass := 2; pass <= 3; pass++ {
		if err := r.Rewind(); err != nil {
			t.Fatalf("pass %d: %v", pass, err)
		}
		var again []devices.Sample
		var s devices.Sample
		for {
			err := r.Read(&s)
			if errors.Is(err, devices.ErrEnd) {
				break
			}
			if err != nil && !devices.Transient(err) {
				t.Fatal(err)
			}
			if err == nil {
				again = append(again, s)
			}
		}
		if len(first) == 0 || !slices.Equal(again, first) {
			t.Fatalf("pass %d played %d samples, not the %d of the first pass", pass, len(again), len(first))
		}
	}
	if !holdsOpen(t, path) {
		t.Fatal("the replay does not hold its file open at the end of a pass")
	}
	r.Close()
	if holdsOpen(t, path) {
		t.Error("the file is still open after Close")
	}
}

// holdsOpen reports whether this process has a file open that was at
// path (and may since have been deleted).
func holdsOpen(t *testing.T, path string) bool {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	for _, fd := range fds {
		if to, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && strings.TrimSuffix(to, " (deleted)") == path {
			return true
		}
	}
	return false
}

// TestARecordingOfBytesThatMakeNoRecordSaysSo: a CyberGlove III's
// recording holding a CyberGlove II's bytes (another glove, or a wrong
// baud rate) holds no sample, and says that its bytes make none, not that
// it was stopped before the glove sent one.
func TestARecordingOfBytesThatMakeNoRecordSaysSo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "other.glove")
	rec, err := recording.Create(path, recording.Header{Model: "cyberglove3", Sensors: 22, Hand: "right", Mode: "stream"})
	if err != nil {
		t.Fatal(err)
	}
	record := append(append([]byte{'S'}, bytes.Repeat([]byte{0x80}, 22)...), 0)
	for i := range 300 {
		if err := rec.WriteRaw(time.Duration(i)*10*time.Millisecond, record); err != nil {
			t.Fatal(err)
		}
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	err = HoldsSamples(path)
	var ns *NoSamplesError
	if !errors.As(err, &ns) || !strings.Contains(err.Error(), "bytes of glove data but no record of its glove (cyberglove3) in them") {
		t.Errorf("got %v", err)
	}
}

// TestARecordingStoppedBeforeItsFirstRecordSaysSo: a CyberGlove III's
// recording holding only the unit's echo of 1S (stopped before the first
// record) says it was stopped before the glove sent one, not that its
// two bytes are another glove's.
func TestARecordingStoppedBeforeItsFirstRecordSaysSo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "early.glove")
	rec, err := recording.Create(path, recording.Header{Model: "cyberglove3", Sensors: 22, Hand: "right", Mode: "stream"})
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.WriteRaw(time.Millisecond, []byte("1S")); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if err := HoldsSamples(path); err == nil || !strings.Contains(err.Error(), "stopped before the glove sent one") {
		t.Errorf("got %v", err)
	}
}
