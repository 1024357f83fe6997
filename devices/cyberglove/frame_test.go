package cyberglove

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gloved/gloved/devices"
)

// record encodes one record the way a unit sends it.
func record(head byte, f Format, raw []byte, ts uint32, status byte) []byte {
	return AppendRecord(nil, head, f, raw, ts, status)
}

func seqRaw(n int, base byte) []byte {
	r := make([]byte, n)
	for i := range r {
		r[i] = 1 + (base+byte(i))%254
	}
	return r
}

type parsed struct {
	raw  []byte
	err  string
	time uint32
	st   devices.Status
}

// each feeds p the chunks in turn and calls take with every event it
// gives, its error and the sample.
func each(p devices.Parser, chunks [][]byte, take func(ev devices.Event, err error, s *devices.Sample)) {
	var s devices.Sample
	for _, c := range chunks {
		p.Feed(c)
		for {
			ev, err := p.Next(&s)
			if ev == devices.NeedMore {
				break
			}
			take(ev, err, &s)
		}
	}
}

func parseAll(p *Parser, chunks ...[]byte) []parsed {
	var out []parsed
	each(p, chunks, func(ev devices.Event, err error, s *devices.Sample) {
		if ev == devices.GotError {
			out = append(out, parsed{err: err.Error()})
			return
		}
		r := make([]byte, s.N)
		for i := range r {
			r[i] = byte(s.Raw[i])
		}
		out = append(out, parsed{raw: r, time: s.GloveTime, st: s.Status})
	})
	return out
}

func TestRecordLengths(t *testing.T) {
	for _, tc := range []struct {
		f    Format
		want int
	}{{Format{Sensors: 22}, 24}, {Format{Sensors: 18}, 20}, {Format{Sensors: 22, Timestamp: true, Status: true}, 30}} {
		if got := tc.f.RecordLen(); got != tc.want {
			t.Errorf("%+v: got %d, want %d", tc.f, got, tc.want)
		}
	}
	if (Format{Sensors: 20}).Validate() == nil {
		t.Error("20 sensors must be rejected")
	}
}

func TestTimestampRoundTrip(t *testing.T) {
	for _, v := range []uint32{0, 1, 0xFF, 0x100, 0x01000000, 0xFFFFFFFF, 0x00FF00FF, 123456789} {
		b := EncodeTimestamp(v)
		if bytes.IndexByte(b[:], 0) >= 0 {
			t.Fatalf("%#x encodes with a zero byte: %v", v, b)
		}
		if got := decodeTimestamp(b[:]); got != v {
			t.Fatalf("%#x decodes as %#x", v, got)
		}
	}
}

func TestParserFraming(t *testing.T) {
	f22 := Format{Sensors: 22}
	r1, r2 := seqRaw(22, 0), seqRaw(22, 100)
	tests := []struct {
		name   string
		f      Format
		chunks [][]byte
		want   []parsed
	}{
		{"two records", f22, [][]byte{record('S', f22, r1, 0, 0), record('S', f22, r2, 0, 0)}, []parsed{{raw: r1}, {raw: r2}}},
		{"split anywhere", f22, [][]byte{record('S', f22, r1, 0, 0)[:5], append(record('S', f22, r1, 0, 0)[5:], record('S', f22, r2, 0, 0)[:1]...)}, []parsed{{raw: r1}}},
		{"stale half record first", f22, [][]byte{record('S', f22, r1, 0, 0)[9:], record('S', f22, r1, 0, 0), record('S', f22, r2, 0, 0)}, []parsed{{raw: r1}, {raw: r2}}},
		{"glove unplugged", f22, [][]byte{[]byte("Seg\x00"), record('S', f22, r1, 0, 0), {'S'}}, []parsed{{err: "devices: glove error ['g' (glove not plugged in)]"}, {raw: r1}}},
		{"double error tail", f22, [][]byte{[]byte("Ges\x00")[:1], []byte("e?es\x00")}, []parsed{{err: "devices: glove error ['?' (unknown command) 's' (sampling too fast)]"}}},
		{"error in place of terminator", f22, [][]byte{append(record('S', f22, r1, 0, 0)[:23], 'e', 's', 0)}, []parsed{{err: "devices: glove error ['s' (sampling too fast)]"}}},
		{"first sensor reads 'e'", f22, [][]byte{record('S', f22, append([]byte{'e'}, r1[1:]...), 0, 0), {'S'}}, []parsed{{raw: append([]byte{'e'}, r1[1:]...)}}},
		{"zero inside a record", f22, [][]byte{record('S', f22, r1, 0, 0)[:10], record('S', f22, r1, 0, 0)[12:], record('S', f22, r2, 0, 0), {'S'}}, []parsed{{raw: r2}}},
		{"18 sensors polled", Format{Sensors: 18}, [][]byte{record('G', Format{Sensors: 18}, r1[:18], 0, 0), {'G'}}, []parsed{{raw: r1[:18]}}},
		{"timestamp and status", Format{Sensors: 22, Timestamp: true, Status: true},
			[][]byte{record('S', Format{Sensors: 22, Timestamp: true, Status: true}, r1, 70000, 3), {'S'}},
			[]parsed{{raw: r1, time: 70000, st: devices.StatusValid | devices.StatusGloveIn | devices.StatusSwitch}}},
	}
	for _, tc := range tests {
		p := NewParser(tc.f, true, nil)
		got := parseAll(p, tc.chunks...)
		if len(got) != len(tc.want) {
			t.Errorf("%s: got %d events %+v, want %+v", tc.name, len(got), got, tc.want)
			continue
		}
		for i := range got {
			if !bytes.Equal(got[i].raw, tc.want[i].raw) || got[i].err != tc.want[i].err || got[i].time != tc.want[i].time || got[i].st != tc.want[i].st {
				t.Errorf("%s: event %d: got %+v, want %+v", tc.name, i, got[i], tc.want[i])
			}
		}
	}
}

// junk returns garbage that holds neither a 0 nor a header letter: bytes
// that a line fault can inject but that cannot forge a record.
func junk(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		for b[i] == 0 || b[i] == 'S' || b[i] == 'G' {
			b[i] = byte(r.IntN(256))
		}
	}
	return b
}

// TestParserNeverForgesUnderGarbage streams thousands of distinct records
// with garbage bursts inserted at random places (inside records too) and
// random chunking: every sample that comes out is one that went in, in
// order, and nearly every record that garbage did not touch comes out (a
// rejected frame hides the next record length of bytes, which may hold a
// clean record: a loss, never a forgery).
func TestParserNeverForgesUnderGarbage(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 21))
	for _, f := range []Format{{Sensors: 22}, {Sensors: 18}, {Sensors: 22, Timestamp: true, Status: true}} {
		var stream []byte
		var sent [][]byte
		touched := map[int]bool{}
		for k := range 5000 {
			raw := make([]byte, f.Sensors)
			for i := range raw {
				raw[i] = byte(1 + r.IntN(254))
			}
			rec := record('S', f, raw, uint32(k), byte(r.IntN(8)))
			if r.IntN(20) == 0 { // garbage inside this record
				at := 1 + r.IntN(len(rec)-1)
				rec = slices.Concat(rec[:at], junk(r, 1+r.IntN(30)), rec[at:])
				touched[k] = true
			}
			if r.IntN(20) == 0 { // garbage before it
				stream = append(stream, junk(r, 1+r.IntN(30))...)
				touched[k] = true
			}
			stream = append(stream, rec...)
			sent = append(sent, raw)
		}
		stream = append(stream, 'S')
		p := NewParser(f, true, nil)
		bytesOf := func(s *devices.Sample) []byte { return toBytes(s.Sensors()) }
		got, cleanLost := lostClean(t, fmt.Sprint(f), p, randomChunks(r, stream, 64), bytesOf, sent, touched)
		if p.Faults.BadFrames == 0 || p.Faults.Resyncs < 2 {
			t.Errorf("%+v: faults %+v: garbage went uncounted", f, *p.Faults)
		}
		if cleanLost > len(sent)/50 {
			t.Errorf("%+v: %d untouched records lost of %d", f, cleanLost, len(sent))
		}
		t.Logf("%+v: %d of %d surfaced, %d untouched ones lost, faults %+v", f, got, len(sent), cleanLost, *p.Faults)
	}
}

// lostClean feeds p the chunks and fails the test on an error event or a
// sample (as conv reads it) that was not sent, in the order sent; it
// returns how many samples came and how many sent records are missing
// though garbage touched neither them nor the record after them.
func lostClean[E comparable](t *testing.T, what string, p devices.Parser, chunks [][]byte, conv func(*devices.Sample) []E, sent [][]E, touched map[int]bool) (got, lost int) {
	t.Helper()
	k := 0
	each(p, chunks, func(ev devices.Event, err error, s *devices.Sample) {
		if ev == devices.GotError {
			t.Fatalf("%s: unexpected error event %v", what, err)
		}
		g := conv(s)
		for k < len(sent) && !slices.Equal(sent[k], g) {
			if !touched[k] && !touched[k+1] {
				lost++
			}
			k++
		}
		if k == len(sent) {
			t.Fatalf("%s: emitted a sample that was never sent: %v", what, g)
		}
		k++
		got++
	})
	return got, lost
}

// randomChunks cuts stream into pieces of 1 to most bytes, as reads would.
func randomChunks(r *rand.Rand, stream []byte, most int) [][]byte {
	var chunks [][]byte
	for len(stream) > 0 {
		n := min(len(stream), 1+r.IntN(most))
		chunks, stream = append(chunks, stream[:n]), stream[n:]
	}
	return chunks
}

// drain takes every event p has ready, into s, and returns how many.
func drain(p devices.Parser, s *devices.Sample) int {
	n := 0
	for {
		if ev, _ := p.Next(s); ev == devices.NeedMore {
			return n
		}
		n++
	}
}

// cleanStream is n well-formed streamed records of format f.
func cleanStream(f Format, n int) []byte {
	var stream []byte
	for k := range n {
		stream = append(stream, record('S', f, seqRaw(f.Sensors, byte(k)), 0, 0)...)
	}
	return stream
}

// TestParsersAllocateNothing: either parser, once built, reads a stream
// without allocating.
func TestParsersAllocateNothing(t *testing.T) {
	f := Format{Sensors: 22}
	stream3, _, _ := stream3(50, values3, func(int) []byte { return nil })
	for _, tc := range []struct {
		p      devices.Parser
		stream []byte
	}{{NewParser(f, true, nil), cleanStream(f, 50)}, {NewParser3(22, nil), stream3}} {
		var s devices.Sample
		allocs := testing.AllocsPerRun(100, func() {
			tc.p.Feed(tc.stream)
			drain(tc.p, &s)
		})
		if allocs != 0 {
			t.Fatalf("%T: %v allocations per run", tc.p, allocs)
		}
	}
}

func TestGloveErrorIsTransient(t *testing.T) {
	p := NewParser(Format{Sensors: 22}, true, nil)
	p.Feed([]byte("Seg\x00"))
	var s devices.Sample
	_, err := p.Next(&s)
	var ge *devices.GloveError
	if !errors.As(err, &ge) || !devices.Transient(err) || p.Faults.NoGlove != 1 {
		t.Fatalf("got %v (faults %+v)", err, *p.Faults)
	}
}

func FuzzParser(f *testing.F) {
	f22 := Format{Sensors: 22}
	f.Add(record('S', f22, seqRaw(22, 3), 0, 0), uint8(0))
	f.Add([]byte("Seg\x00Ses\x00Geg\x00"), uint8(1))
	f.Add(slices.Concat(record('S', f22, seqRaw(22, 9), 0, 0), []byte{1, 2, 'S', 0}), uint8(2))
	f.Fuzz(func(t *testing.T, b []byte, opt uint8) {
		fm := Format{Sensors: 18 + 4*int(opt&1), Timestamp: opt&2 != 0, Status: opt&4 != 0}
		p := NewParser(fm, opt&8 == 0, nil)
		checkEvents(t, p, b, 1+int(opt>>4), fm.Sensors, devices.Bits8, 255)
	})
}

// checkEvents feeds p the input in pieces of the given size and checks
// every event it gives: an error event carries its error; a sample has n
// sensors of the given bits, each in 1..top; the buffer stays bounded. It
// returns the samples' values.
func checkEvents(t *testing.T, p devices.Parser, in []byte, piece, n int, bits uint8, top uint16) [][]uint16 {
	var out [][]uint16
	for len(in) > 0 {
		k := min(len(in), piece)
		each(p, [][]byte{in[:k]}, func(ev devices.Event, err error, s *devices.Sample) {
			if ev == devices.GotError {
				if err == nil {
					t.Fatal("error event without an error")
				}
				return
			}
			if s.N != n || s.Bits != bits {
				t.Fatalf("sample with %d sensors of %d bits", s.N, s.Bits)
			}
			for _, v := range s.Sensors() {
				if v == 0 || v > top {
					t.Fatalf("sensor value %d cannot come from a record", v)
				}
			}
			out = append(out, slices.Clone(s.Sensors()))
		})
		in = in[k:]
		if p.Buffered() > parserCap {
			t.Fatalf("buffer grew to %d", p.Buffered())
		}
	}
	return out
}

func BenchmarkParser(b *testing.B) {
	f := Format{Sensors: 22}
	stream := cleanStream(f, 1000)
	p := NewParser(f, true, nil)
	var s devices.Sample
	b.ReportAllocs()
	b.SetBytes(int64(len(stream)))
	records := 0
	for b.Loop() {
		p.Feed(stream)
		records += drain(p, &s)
	}
	b.ReportMetric(float64(records)/b.Elapsed().Seconds(), "records/s")
}
