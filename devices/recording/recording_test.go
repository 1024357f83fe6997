package recording

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
)

// samples returns n samples of a glove with sensors readings of bits and
// angles joint angles, all different.
func samples(n, sensors int, bits uint8, angles int) []devices.Sample {
	out := make([]devices.Sample, n)
	for i := range out {
		s := &out[i]
		s.Time, s.N, s.Bits, s.NAngles = time.Duration(i)*10*time.Millisecond, sensors, bits, angles
		for k := range sensors {
			s.Raw[k] = uint16(1 + (7*i+13*k)%((1<<bits)-2))
		}
		for k := range angles {
			s.Angles[k] = float64(i-k) / 10
		}
		s.Status = devices.StatusValid | devices.Status(i%2)
	}
	return out
}

// writeSamples records ss to path and returns what it wrote.
func writeSamples(t *testing.T, path string, h Header, ss []devices.Sample) []byte {
	t.Helper()
	rec, err := Create(path, h)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ss {
		if err := rec.WriteSample(&ss[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	return b
}

// readSamples reads back every sample record of path.
func readSamples(t *testing.T, path string) []devices.Sample {
	t.Helper()
	rr, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Close()
	var out []devices.Sample
	for {
		rec, err := rr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		var s devices.Sample
		if err := DecodeSample(rec.Payload, &s); err != nil {
			t.Fatal(err)
		}
		s.Time = rec.Time
		out = append(out, s)
	}
}

// TestSampleRecordsRoundTrip: samples of every form come back as they
// were written: 8-bit readings alone (in the form gloved has always
// written: a u8 count, the u16 readings, the status byte), other
// resolutions, joint angles, angles alone.
func TestSampleRecordsRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		sensors int
		bits    uint8
		angles  int
	}{{22, 8, 0}, {18, 8, 0}, {5, 10, 0}, {5, 12, 2}, {0, 8, 23}, {devices.MaxReadings, 16, devices.MaxAngles}} {
		name := fmt.Sprintf("%d sensors of %d bits, %d angles", tc.sensors, tc.bits, tc.angles)
		path := filepath.Join(t.TempDir(), "s.glove")
		want := samples(20, tc.sensors, tc.bits, tc.angles)
		writeSamples(t, path, Header{Model: "test", Sensors: tc.sensors}, want)
		got := readSamples(t, path)
		if len(got) != len(want) {
			t.Fatalf("%s: %d samples back, want %d", name, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: sample %d: got %+v, want %+v", name, i, got[i], want[i])
			}
		}
	}
}

// TestPlainSampleRecordIsTheFirstVersionsForm: an 8-bit sample without
// angles is written byte for byte as gloved's first version wrote it, so
// that a simulation's recordings stay what they were.
func TestPlainSampleRecordIsTheFirstVersionsForm(t *testing.T) {
	s := samples(1, 18, 8, 0)[0]
	path := filepath.Join(t.TempDir(), "s.glove")
	data := writeSamples(t, path, Header{Model: "sim", Sensors: 18}, []devices.Sample{s})
	want := []byte{18}
	for _, v := range s.Sensors() {
		want = binary.LittleEndian.AppendUint16(want, v)
	}
	want = append(want, byte(s.Status))
	if !bytes.Contains(data, want) || len(data) != bytes.Index(data, want)+len(want)+4 {
		t.Errorf("the record's payload is not u8(18) u16(raw)x18 u8(status) followed by its CRC")
	}
}

func TestDamagedSampleRecordsAreRefused(t *testing.T) {
	good := []byte{1, 5, 0, 0x80}
	for _, tc := range []struct {
		name string
		p    []byte
	}{
		{"too short", []byte{1}},
		{"fewer readings than counted", []byte{3, 5, 0, 0x80}},
		{"too many readings", append([]byte{devices.MaxReadings + 1}, make([]byte, 2*devices.MaxReadings+3)...)},
		{"a tail of one byte", append(bytes.Clone(good), 8)},
		{"zero bits", append(bytes.Clone(good), 0, 0)},
		{"angles cut short", append(bytes.Clone(good), 8, 2, 0, 0, 0, 0, 0, 0, 0, 0)},
		{"a NaN angle", binary.LittleEndian.AppendUint64(append(bytes.Clone(good), 8, 1), math.Float64bits(math.NaN()))},
	} {
		var s devices.Sample
		if err := DecodeSample(tc.p, &s); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: got %v, want ErrCorrupt", tc.name, err)
		}
	}
}

func TestRecordingRejectsOtherFiles(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{"empty": "", "text": "hello, this is not a recording", "version": "GLOVEREC\x09\x00"} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o644)
		if _, err := Open(p); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: got %v, want an error naming the file", name, err)
		}
	}
	for _, h := range []Header{{Sensors: 22}, {Model: "cyberglove", Sensors: devices.MaxReadings + 1}, {Model: "cyberglove", Sensors: -1}} {
		if _, err := Create(filepath.Join(dir, "new.glove"), h); err == nil || !strings.Contains(err.Error(), "header:") {
			t.Errorf("Create with %+v: got %v, want a header error", h, err)
		}
	}
	var b bytes.Buffer
	js := []byte(`{"format":"gloved-recording","model":"","sensors":22,"hand":"right"}`)
	b.WriteString("GLOVEREC\x01\x00")
	binary.Write(&b, binary.LittleEndian, uint32(len(js)))
	b.Write(js)
	binary.Write(&b, binary.LittleEndian, crc32.ChecksumIEEE(js))
	if _, err := NewReader(&b); err == nil || !strings.Contains(err.Error(), "no glove model") {
		t.Errorf("a header without a model: got %v", err)
	}
}

func FuzzRecordingReader(f *testing.F) {
	dir := f.TempDir()
	path := filepath.Join(dir, "seed.glove")
	rec, _ := Create(path, Header{Model: "sim", Sensors: 22, Hand: "right", Mode: "stream"})
	rec.WriteRaw(1, []byte("S\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x00"))
	rec.WriteRaw(2, nil)
	rec.WriteWrist(3, [7]float64{1, 0, 0, 0, 0, 0, 0})
	for _, s := range samples(2, 5, 12, 2) {
		rec.WriteSample(&s)
	}
	rec.Close()
	seed, _ := os.ReadFile(path)
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	f.Fuzz(func(t *testing.T, b []byte) {
		rr, err := NewReader(bytes.NewReader(b))
		if err != nil {
			return
		}
		var s devices.Sample
		for range 10000 {
			rec, err := rr.Next()
			if err != nil {
				return
			}
			switch rec.Kind {
			case KindSample:
				if DecodeSample(rec.Payload, &s) == nil && (s.N > devices.MaxReadings || s.NAngles > devices.MaxAngles || s.Bits == 0) {
					t.Fatalf("sample with %d sensors of %d bits and %d angles", s.N, s.Bits, s.NAngles)
				}
			case KindWrist:
				DecodeWrist(rec.Payload)
			}
		}
	})
}

// TestCreateNeverTruncates: a second recording to the same path keeps the
// first as NAME.1.glove, a third keeps the second as NAME.2.glove.
func TestCreateNeverTruncates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.glove")
	sizes := map[string]int64{}
	for i, n := range []int{5, 9, 3} {
		writeSamples(t, path, Header{Model: "sim", Sensors: 22, Hand: "right"}, samples(n, 22, 8, 0))
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

// TestARecordingKeptAsideKnowsWhereItIs: a second recording created at
// the path of one still being written keeps the first aside as
// NAME.1.EXT; the first goes on writing there, and its Path says so (a
// record command named the path it was made at, which the second one
// now held), while the second's Path is the path; discarding the first
// removes its file, not the second's.
func TestARecordingKeptAsideKnowsWhereItIs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cc.glove")
	h := Header{Model: "sim", Sensors: 22, Hand: "right", Mode: "stream"}
	first, err := Create(path, h)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	if p := first.Path(); p != path {
		t.Fatalf("first: %s, want %s", p, path)
	}
	second, err := Create(path, h)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if p, want := first.Path(), filepath.Join(filepath.Dir(path), "cc.1.glove"); p != want {
		t.Errorf("first, kept aside: %s, want %s", p, want)
	}
	if p := second.Path(); p != path {
		t.Errorf("second: %s, want %s", p, path)
	}
	// Discarding the first removes its own file, not the second's.
	if err := first.Discard(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("the second's file is gone: %v", err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), "cc.1.glove")); err == nil {
		t.Errorf("the first's file is still there")
	}
}

// TestTwoRecordingsJoinedSayWhereTheSecondBegins: a file of two
// recordings one after the other (cat a.glove b.glove) reads as the
// first, and its end names the second's beginning, not a record "cut
// short" at a header.
func TestTwoRecordingsJoinedSayWhereTheSecondBegins(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one.glove")
	rec, err := Create(one, Header{Model: "sim", Sensors: 22, Hand: "right"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := rec.WriteRaw(time.Duration(i)*time.Millisecond, []byte{1, 2, 3}); err != nil {
			t.Fatal(err)
		}
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(one)
	if err != nil {
		t.Fatal(err)
	}
	joined := filepath.Join(dir, "joined.glove")
	if err := os.WriteFile(joined, append(slices.Clone(b), b...), 0o644); err != nil {
		t.Fatal(err)
	}
	rr, err := Open(joined)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Close()
	n := 0
	for {
		_, err := rr.Next()
		if err == nil {
			n++
			continue
		}
		want := fmt.Sprintf("another recording begins at byte %d (two recordings joined in one file?)", len(b))
		if n != 3 || !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), want) {
			t.Errorf("%d records, then %v; want 3, then %q", n, err, want)
		}
		return
	}
}
