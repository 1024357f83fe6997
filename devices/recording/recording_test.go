package recording

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
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
	rec, err := Create(path, Header{Model: string(model), Sensors: 22, Hand: "right", Mode: "stream", StatusByte: model == cyberglove.ModelII, Source: em.Path, Calibration: "# none\n"})
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

func replayAll(t *testing.T, path string) ([]devices.Sample, *Replay) {
	t.Helper()
	r, err := OpenReplay(path, false)
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
	rr, err := Open(path)
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
		if r.Warning() == nil || !errors.Is(r.Warning(), ErrCorrupt) || !strings.Contains(r.Warning().Error(), "at byte") {
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
	if !errors.Is(r.Warning(), ErrCorrupt) || len(got) >= len(whole) {
		t.Errorf("flipped byte: %d samples, warning %v", len(got), r.Warning())
	}
}

func TestRecordingRejectsOtherFiles(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{"empty": "", "text": "hello, this is not a recording", "version": "GLOVEREC\x09\x00"} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o644)
		if _, err := OpenReplay(p, false); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: got %v, want an error naming the file", name, err)
		}
	}
	// A glove model it cannot read the bytes of: refused when written,
	// and when read (a header written by another program).
	if _, err := Create(filepath.Join(dir, "new.glove"), Header{Model: "cyberglove4", Sensors: 22}); err == nil || !strings.Contains(err.Error(), `glove model "cyberglove4"`) {
		t.Errorf("Create with model cyberglove4: got %v", err)
	}
	var b bytes.Buffer
	js := []byte(`{"format":"gloved-recording","model":"cyberglove4","sensors":22,"hand":"right"}`)
	b.WriteString("GLOVEREC\x01\x00")
	binary.Write(&b, binary.LittleEndian, uint32(len(js)))
	b.Write(js)
	binary.Write(&b, binary.LittleEndian, crc32.ChecksumIEEE(js))
	if _, err := NewReplay(&b, false); err == nil || !strings.Contains(err.Error(), `glove model "cyberglove4": this gloved reads recordings of cyberglove, cyberglove3, sim`) {
		t.Errorf("a header of model cyberglove4: got %v", err)
	}
}

func TestSampleRecordsRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sim.glove")
	rec, err := Create(path, Header{Model: "sim", Sensors: 18, Hand: "left"})
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

func FuzzRecordingReader(f *testing.F) {
	dir := f.TempDir()
	path := filepath.Join(dir, "seed.glove")
	rec, _ := Create(path, Header{Model: "sim", Sensors: 22, Hand: "right", Mode: "stream"})
	rec.WriteRaw(1, cyberglove.AppendRecord(nil, 'S', cyberglove.Format{Sensors: 22}, []byte("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16"), 0, 0))
	rec.WriteRaw(2, nil)
	rec.WriteWrist(3, [7]float64{1, 0, 0, 0, 0, 0, 0})
	rec.Close()
	seed, _ := os.ReadFile(path)
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := NewReplay(bytes.NewReader(b), false)
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
	r, err := OpenReplay("../../testdata/recordings/grasp.glove", false)
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

// TestCreateNeverTruncates: a second recording to the same path keeps the
// first as NAME.1.glove, a third keeps the second as NAME.2.glove.
func TestCreateNeverTruncates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.glove")
	sizes := map[string]int64{}
	for i, n := range []int{5, 9, 3} {
		rec, err := Create(path, Header{Model: "sim", Sensors: 22, Hand: "right"})
		if err != nil {
			t.Fatal(err)
		}
		g, _ := sim.New(sim.Grasp, 22, 10*time.Millisecond, true)
		var s devices.Sample
		for range n {
			g.Read(&s)
			rec.WriteSample(&s)
		}
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
		fi, _ := os.Stat(path)
		sizes[fmt.Sprint(i)] = fi.Size()
	}
	dir := filepath.Dir(path)
	for name, want := range map[string]int64{"session.1.glove": sizes["0"], "session.2.glove": sizes["1"], "session.glove": sizes["2"]} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil || fi.Size() != want {
			t.Errorf("%s: %v, size %v, want %d", name, err, fi, want)
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
	if err != nil || !errors.Is(warning, ErrCorrupt) || len(part) == 0 || len(part) >= len(whole) || part[len(part)-1] != whole[len(part)-1] {
		t.Fatalf("half: %d samples, warning %v, error %v", len(part), warning, err)
	}
}
