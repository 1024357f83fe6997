package cyberglove

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/layout"
)

// values3 is a record's 22 values, k-th record of a stream: distinct per
// record, in 1..Max3.
func values3(k int) [layout.Slots]uint16 {
	var v [layout.Slots]uint16
	for i := range v {
		v[i] = uint16(1 + (k*97+i*181)%Max3)
	}
	return v
}

// stamp3 is the stamp of the k-th record of a 90 Hz stream from 12:34:56.
func stamp3(k int) Stamp {
	s := 12*3600 + 34*60 + 56 + k/90
	return Stamp{Hour: uint8(s / 3600 % 24), Minute: uint8(s / 60 % 60), Second: uint8(s % 60), Frame: uint8(k % 90), Unit: '1'}
}

func record3(k int, v [layout.Slots]uint16) []byte {
	return AppendRecord3(nil, stamp3(k), &v)
}

// trapValues puts 0D 0A 00 inside a record's values both ways it can
// occur: a value 0x0D0A followed by one below 256, and a low byte 0x0D
// followed by 0x0A00.
func trapValues(k int) [layout.Slots]uint16 {
	v := values3(k)
	at := 2 * (k % 9)
	v[at], v[at+1] = 0x0D0A, uint16(k%200+1)
	v[at+3], v[at+4] = 0x010D, 0x0A00
	return v
}

type got3 struct {
	raw  []uint16
	err  string
	time uint32
}

func parse3(p *Parser3, chunks ...[]byte) []got3 {
	var out []got3
	each(p, chunks, func(ev devices.Event, err error, s *devices.Sample) {
		if ev == devices.GotError {
			out = append(out, got3{err: err.Error()})
			return
		}
		if s.Bits != devices.Bits12 || s.Status != 0 {
			panic(fmt.Sprintf("sample %+v: want 12 bits and no status", *s))
		}
		out = append(out, got3{raw: slices.Clone(s.Sensors()), time: s.GloveTime})
	})
	return out
}

func sameSamples(got []got3, want [][layout.Slots]uint16) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if !slices.Equal(got[i].raw, want[i][:]) {
			return false
		}
	}
	return true
}

// TestStamp: a stamp is written and read as HH:MM:SS:ff:nS, any two
// digits in each field; anything of another shape does not fit.
func TestStamp(t *testing.T) {
	for _, tc := range []struct {
		st    Stamp
		text  string
		count uint32
	}{
		{Stamp{0, 0, 0, 0, '0'}, "00:00:00:00:0S", 0},
		{Stamp{12, 34, 56, 78, '1'}, "12:34:56:78:1S", (12*3600+34*60+56)*100 + 78},
		{Stamp{23, 59, 59, 99, '9'}, "23:59:59:99:9S", 86399*100 + 99},
		// A clock that counts from power-on passes a day; nothing in the
		// reference bounds a field below 99.
		{Stamp{24, 0, 0, 0, '1'}, "24:00:00:00:1S", 86400 * 100},
		{Stamp{99, 99, 99, 99, '1'}, "99:99:99:99:1S", (99*3600+99*60+99)*100 + 99},
	} {
		b := tc.st.Append(nil)
		if string(b) != tc.text || !stampFits(b) || decodeStamp(b) != tc.st || tc.st.Count() != tc.count {
			t.Errorf("%+v: got %q (fits %v, decodes %+v, count %d), want %q and %d", tc.st, b, stampFits(b), decodeStamp(b), tc.st.Count(), tc.text, tc.count)
		}
	}
	for _, bad := range []string{"00:00:00:00:1s", "00:00:00:00:xS", "00-00:00:00:1S", "0a:00:00:00:1S"} {
		if stampFits([]byte(bad)) {
			t.Errorf("%q fits the stamp's form", bad)
		}
	}
	// Every prefix of a stamp fits: the parser waits for the rest.
	full := []byte("23:59:59:99:9S")
	for n := range full {
		if !stampFits(full[:n]) {
			t.Errorf("prefix %q does not fit", full[:n])
		}
	}
}

// TestParser3ReadsAClockPastADay: records stamped 24:00:00 and later (a
// unit up for more than a day, if its clock counts from power-on) are
// read like any others, their stamps counting on.
func TestParser3ReadsAClockPastADay(t *testing.T) {
	var stream []byte
	var want [][layout.Slots]uint16
	for k, st := range []Stamp{{23, 59, 59, 89, '1'}, {24, 0, 0, 0, '1'}, {47, 12, 5, 3, '1'}, {99, 59, 59, 89, '1'}} {
		v := values3(k)
		stream = AppendRecord3(stream, st, &v)
		want = append(want, v)
	}
	got := parse3(NewParser3(22, nil), stream)
	if !sameSamples(got, want) || got[1].time != 86400*100 || got[3].time != (99*3600+59*60+59)*100+89 {
		t.Fatalf("got %+v, want the four records with their stamps", got)
	}
}

// TestParser3Fields: every field of a record reaches the sample: the 22
// values in order, or an 18-sensor glove's 18 (its DIP slots framed but
// not read), 12 bits, the stamp as GloveTime; the ends of the range pass,
// 0 and 4095 are clamped and counted, a value of 13 bits breaks the frame.
func TestParser3Fields(t *testing.T) {
	v := values3(5)
	v[0], v[21] = 1, Max3
	p := NewParser3(22, nil)
	got := parse3(p, []byte("1S"), record3(0, v), record3(1, values3(6)), []byte("12"))
	if len(got) != 2 || !slices.Equal(got[0].raw, v[:]) || got[0].time != stamp3(0).Count() || got[1].time != stamp3(1).Count() {
		t.Fatalf("got %+v, want the values %v at time %d", got, v, stamp3(0).Count())
	}
	if f := *p.Faults; f.BadFrames != 0 || f.OutOfRange != 0 || f.Resyncs != 1 || f.SkippedBytes != 2 {
		t.Errorf("faults %+v: want one lock, the echo skipped, nothing else", f)
	}

	p18 := NewParser3(18, nil)
	v18 := values3(7)
	for _, k := range []int{6, 9, 13, 17} {
		v18[k] = 0 // an 18-sensor glove's DIP slots: not sensors
	}
	got = parse3(p18, record3(0, v18), record3(1, v18), []byte("1"))
	want := make([]uint16, 18)
	for i, k := range layout.Sensors18 {
		want[i] = v18[k]
	}
	if len(got) != 2 || !slices.Equal(got[0].raw, want) || p18.Faults.OutOfRange != 0 {
		t.Fatalf("18 sensors: got %+v, want %v, faults %+v", got, want, *p18.Faults)
	}

	for _, tc := range []struct {
		name        string
		set, expect uint16
		outOfRange  uint64
	}{{"zero", 0, 1, 1}, {"4095", 4095, Max3, 1}, {"one", 1, 1, 0}, {"4094", Max3, Max3, 0}} {
		v := values3(9)
		v[3] = tc.set
		p := NewParser3(22, nil)
		got := parse3(p, record3(0, v), stamp3(1).Append(nil))
		if len(got) != 1 || got[0].raw[3] != tc.expect || p.Faults.OutOfRange != tc.outOfRange {
			t.Errorf("%s: got %+v faults %+v, want value %d, %d out of range", tc.name, got, *p.Faults, tc.expect, tc.outOfRange)
		}
	}
	v = values3(9)
	v[3] = 0x1000
	p = NewParser3(22, nil)
	if got := parse3(p, record3(0, v), record3(1, values3(1)), stamp3(2).Append(nil)); !sameSamples(got, [][layout.Slots]uint16{values3(1)}) || p.Faults.BadFrames != 1 {
		t.Errorf("a 13-bit value: got %+v, faults %+v; want that record rejected and the next one read", got, *p.Faults)
	}
}

// TestParser3ErrorTails: the error a unit sends in place of the values,
// ended by the trailer or a bare 0x00, one code or two.
func TestParser3ErrorTails(t *testing.T) {
	st := stamp3(0).Append(nil)
	for _, tc := range []struct {
		tail, says string
	}{
		{"eg\r\n\x00", "['g' (glove not plugged in)]"},
		{"eg\x00", "['g' (glove not plugged in)]"},
		{"e?es\r\n\x00", "['?' (unknown command) 's' (sampling too fast)]"},
		{"e?es\x00", "['?' (unknown command) 's' (sampling too fast)]"},
	} {
		p := NewParser3(22, nil)
		got := parse3(p, slices.Concat(st, []byte(tc.tail)), record3(1, values3(1)), []byte("1"))
		if len(got) != 2 || got[0].err != "devices: glove error "+tc.says || !sameSamples(got[1:], [][layout.Slots]uint16{values3(1)}) {
			t.Errorf("%q: got %+v", tc.tail, got)
		}
		if f := *p.Faults; f.ErrorTails != 1 || f.BadFrames != 0 || (tc.tail[1] == 'g') != (f.NoGlove == 1) {
			t.Errorf("%q: faults %+v", tc.tail, f)
		}
	}
	for _, bad := range []string{"e\x00", "eg\r\x00", "eg\re", "egx"} {
		p := NewParser3(22, nil)
		got := parse3(p, slices.Concat(st, []byte(bad)), record3(1, values3(1)), stamp3(2).Append(nil))
		if !sameSamples(got, [][layout.Slots]uint16{values3(1)}) {
			t.Errorf("%q is no error tail: got %+v", bad, got)
		}
	}
}

// stream3 is n records with a fragment or garbage between some, the
// record boundaries, and the values sent.
func stream3(n int, vals func(int) [layout.Slots]uint16, between func(k int) []byte) ([]byte, []int, [][layout.Slots]uint16) {
	var b []byte
	var starts []int
	var sent [][layout.Slots]uint16
	for k := range n {
		b = append(b, between(k)...)
		starts = append(starts, len(b))
		v := vals(k)
		b = append(b, record3(k, v)...)
		sent = append(sent, v)
	}
	return append(b, stamp3(n).Append(nil)...), starts, sent
}

// TestParser3SplitsAnywhere: a stream, with the echo before it and
// fragments between records, read in two or three pieces cut anywhere,
// gives every record, the trapped ones included, and counts no fault but
// the first lock.
func TestParser3SplitsAnywhere(t *testing.T) {
	frags := func(k int) []byte { return [][]byte{[]byte("1S"), nil, []byte("e1S"), []byte("7S")}[k%4] }
	for name, vals := range map[string]func(int) [layout.Slots]uint16{"plain": values3, "trailer inside values": trapValues} {
		b, _, sent := stream3(3, vals, frags)
		for i := range len(b) {
			for j := i; j < len(b); j += 7 {
				p := NewParser3(22, nil)
				got := parse3(p, b[:i], b[i:j], b[j:])
				if !sameSamples(got, sent) || p.Faults.BadFrames != 0 || p.Faults.Resyncs != 1 {
					t.Fatalf("%s, cut at %d and %d: got %d samples %+v, faults %+v", name, i, j, len(got), got, *p.Faults)
				}
			}
		}
	}
}

// TestParser3FindsTheStampFromAnyByte: started at any byte of a stream
// whose values hold the trailer, the parser emits exactly the records that
// begin after that byte: the trailers inside values never make it lock
// anywhere but at a stamp.
func TestParser3FindsTheStampFromAnyByte(t *testing.T) {
	b, starts, sent := stream3(6, trapValues, func(k int) []byte { return [][]byte{nil, []byte("e1S")}[k%2] })
	for from := range starts[3] {
		first := 0
		for first < len(starts) && starts[first] < from {
			first++
		}
		for _, chunk := range []int{1, 5, 61, len(b)} {
			p := NewParser3(22, nil)
			var pieces [][]byte
			for rest := b[from:]; len(rest) > 0; rest = rest[min(chunk, len(rest)):] {
				pieces = append(pieces, rest[:min(chunk, len(rest))])
			}
			if got := parse3(p, pieces...); !sameSamples(got, sent[first:]) {
				t.Fatalf("from byte %d in chunks of %d: got %d samples, want the %d from record %d", from, chunk, len(got), len(sent)-first, first)
			}
		}
	}
}

// TestParser3LockedLimit is the one forgery the stream's framing allows
// (Parser3's doc): garbage of an even length inserted after a stamp, in a
// record whose own values hold 0D 0A 00 where the garbage moves the
// trailer, read while locked and before the record's tail arrives. The
// shifted record comes out, and the parser relocks on the next record
// instead of staying out of step. With the tail in the same read, the
// damaged record is refused.
func TestParser3LockedLimit(t *testing.T) {
	v := values3(1)
	v[20], v[21] = 0x0D0A, 0x0042 // 0D 0A 00 42 at bytes 54..57
	r := record3(1, v)
	damaged := slices.Concat(r[:20], []byte{1, 2, 3, 4}, r[20:])
	first, next := record3(0, values3(0)), record3(2, values3(2))
	cut := len(first) + Record3Len // the damaged record's frame ends here
	stream := slices.Concat(first, damaged, next, stamp3(3).Append(nil))

	p := NewParser3(22, nil)
	got := parse3(p, stream[:cut], stream[cut:])
	v0, v2 := values3(0), values3(2)
	if len(got) != 3 || !slices.Equal(got[0].raw, v0[:]) || slices.Equal(got[1].raw, v[:]) || !slices.Equal(got[2].raw, v2[:]) {
		t.Fatalf("cut after the frame: got %+v", got)
	}
	if f := *p.Faults; f.BadFrames != 1 || f.Resyncs != 2 {
		t.Errorf("faults %+v: want the tail rejected and a second lock", f)
	}
	p = NewParser3(22, nil)
	if got := parse3(p, stream); !sameSamples(got, [][layout.Slots]uint16{values3(0), values3(2)}) {
		t.Errorf("in one read: got %+v, want the damaged record refused", got)
	}
}

// junk3 is garbage a line can inject that cannot complete a stamp: any
// bytes but ':'.
func junk3(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		for b[i] = byte(r.IntN(256)); b[i] == ':'; b[i] = byte(r.IntN(256)) {
		}
	}
	return b
}

// TestParser3NeverForgesUnderGarbage: thousands of records with random
// values, fragments and garbage bursts (inside records too) and random
// reads: every sample that comes out was sent, in order, and nearly every
// record garbage did not touch comes out.
func TestParser3NeverForgesUnderGarbage(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 33))
	for _, sensors := range []int{22, 18} {
		var stream []byte
		var sent [][]uint16
		touched := map[int]bool{}
		for k := range 5000 {
			var v [layout.Slots]uint16
			for i := range v {
				v[i] = uint16(1 + r.IntN(Max3))
			}
			rec := record3(k, v)
			switch r.IntN(40) {
			case 0: // garbage inside the record
				at := r.IntN(len(rec))
				rec = slices.Concat(rec[:at], junk3(r, 1+r.IntN(30)), rec[at:])
				touched[k] = true
			case 1: // garbage before it
				stream = append(stream, junk3(r, 1+r.IntN(30))...)
				touched[k] = true
			case 2: // a fragment before it
				stream = append(stream, "e1S"[r.IntN(2):]...)
			}
			stream = append(stream, rec...)
			var s devices.Sample
			layout.FromSlots(&v, sensors, &s)
			sent = append(sent, slices.Clone(s.Sensors()))
		}
		stream = append(stream, stamp3(5000).Append(nil)...)
		p := NewParser3(sensors, nil)
		values := func(s *devices.Sample) []uint16 { return slices.Clone(s.Sensors()) }
		got, cleanLost := lostClean(t, fmt.Sprint(sensors, " sensors"), p, randomChunks(r, stream, 128), values, sent, touched)
		if p.Faults.BadFrames == 0 || p.Faults.Resyncs < 2 {
			t.Errorf("%d sensors: faults %+v: garbage went uncounted", sensors, *p.Faults)
		}
		if cleanLost > 0 {
			t.Errorf("%d sensors: %d untouched records lost of %d", sensors, cleanLost, len(sent))
		}
		t.Logf("%d sensors: %d of %d surfaced, faults %+v", sensors, got, len(sent), *p.Faults)
	}
}

// FuzzParser3: any bytes, read in any pieces, give samples of the glove's
// sensor count in 1..Max3 and error events with their error, and keep the
// buffer bounded; and after them, two clean records and a stamp are always
// the last two samples: no input leaves the parser out of step.
func FuzzParser3(f *testing.F) {
	f.Add(record3(0, values3(3)), uint8(0))
	f.Add([]byte("1Se1S12:34:56:78:1Seg\r\n\x0012:34:56:79:1Seg\x00"), uint8(1))
	f.Add(slices.Concat(record3(0, trapValues(4))[:40], []byte("\r\n\x0012:00:00:00:"), record3(1, trapValues(5))), uint8(0x32))
	f.Fuzz(func(t *testing.T, b []byte, opt uint8) {
		sensors := 18 + 4*int(opt&1)
		p := NewParser3(sensors, nil)
		tail := slices.Concat(record3(0, values3(1)), record3(1, values3(2)), stamp3(2).Append(nil))
		last := checkEvents(t, p, slices.Concat(b, tail), 1+int(opt>>1), sensors, devices.Bits12, Max3)
		var s devices.Sample
		want := make([][]uint16, 2)
		for i, v := range [][layout.Slots]uint16{values3(1), values3(2)} {
			layout.FromSlots(&v, sensors, &s)
			want[i] = slices.Clone(s.Sensors())
		}
		if len(last) < 2 || !slices.EqualFunc(last[len(last)-2:], want, slices.Equal) {
			t.Fatalf("the clean records after the input did not come out last: %v", last[max(0, len(last)-2):])
		}
	})
}

// BenchmarkParser3 parses a stream of 1000 records read 256 bytes at a
// time, as a serial port gives them (the passes join without a seam: the
// trailing stamp is left off).
func BenchmarkParser3(b *testing.B) {
	stream, _, _ := stream3(1000, values3, func(int) []byte { return nil })
	stream = stream[:len(stream)-StampLen]
	p := NewParser3(22, nil)
	var s devices.Sample
	b.ReportAllocs()
	b.SetBytes(int64(len(stream)))
	records := 0
	for b.Loop() {
		for rest := stream; len(rest) > 0; {
			n := min(256, len(rest))
			p.Feed(rest[:n])
			rest = rest[n:]
			records += drain(p, &s)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(records), "ns/record")
}
