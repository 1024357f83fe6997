package opengloves

import (
	"slices"
	"strings"
	"testing"

	"github.com/gloved/gloved/devices"
)

// values returns channel values with curls c, splays sp, joystick and
// trigger j, and the flags given pressed.
func values(c, sp, j uint16, flags ...int) *[Channels]uint16 {
	var v [Channels]uint16
	for f := range 5 {
		v[Curl+f], v[Splay+f] = c+uint16(f), sp+uint16(f)
	}
	v[JoyX], v[JoyY], v[Trigger] = j, j+1, j+2
	for _, f := range flags {
		v[Flag+f] = 1
	}
	return &v
}

// lines parses in (after a first newline that ends the cut-off line a
// parser starts in) and returns every sample's channels.
func lines(t *testing.T, p *Parser, in string) [][]uint16 {
	t.Helper()
	var out [][]uint16
	var s devices.Sample
	p.Feed([]byte("cut off\n" + in))
	for {
		ev, err := p.Next(&s)
		if err != nil {
			t.Fatal(err)
		}
		if ev == devices.NeedMore {
			return out
		}
		if s.N != Channels || s.Bits != p.bits {
			t.Fatalf("a sample of %d channels at %d bits", s.N, s.Bits)
		}
		out = append(out, slices.Clone(s.Sensors()))
	}
}

func newParser(t testing.TB, max int) (*Parser, *devices.Faults) {
	var f devices.Faults
	p, err := NewParser(max, &f)
	if err != nil {
		t.Fatal(err)
	}
	return p, &f
}

// TestAFirmwareLineIsASampleOfEveryChannel: the lines a LucidGloves
// firmware sends, with and without splay, come out as sent; a finger that
// sends no per-joint curls has its joints read its curl; a splay not sent
// sits at mid scale; a flag is full scale while in the line.
func TestAFirmwareLineIsASampleOfEveryChannel(t *testing.T) {
	p, f := newParser(t, MaxESP32)
	a, b := values(100, 2000, 2047, 0, 5), values(4000, 10, 0, 7)
	in := string(AppendLine(nil, a, Form{})) + string(AppendLine(nil, b, Form{Splay: true}))
	if got := in[:strings.IndexByte(in, '\n')]; got != "A100B101C102D103E104F2047G2048P2049HM" {
		t.Fatalf("encoded %q", got)
	}
	got := lines(t, p, in)
	if len(got) != 2 {
		t.Fatalf("%d samples", len(got))
	}
	for i, want := range []*[Channels]uint16{a, b} {
		for c := range Channels {
			w := want[c]
			switch {
			case c >= Splay && c < Splay+5 && i == 0:
				w = MaxESP32 / 2
			case c >= Joint && c < Joint+20:
				w = want[Curl+(c-Joint)/4]
			case c >= Flag && w != 0:
				w = MaxESP32
			}
			if got[i][c] != w {
				t.Errorf("sample %d, %s: %d, want %d", i, Names[c], got[i][c], w)
			}
		}
	}
	if f.BadFrames != 0 || f.Resyncs != 1 || f.SkippedBytes != 8 {
		t.Errorf("faults %+v: want the cut-off line skipped, nothing bad", *f)
	}
}

// TestKeysComeInAnyOrderAndMissingOnesKeepTheirValue: keys are read in
// any order; a value key left out keeps its last value, a flag left out
// is released; per-joint curls, once a finger sends them, are its own.
func TestKeysComeInAnyOrderAndMissingOnesKeepTheirValue(t *testing.T) {
	p, f := newParser(t, MaxESP32)
	got := lines(t, p, "(BB)7P9B5A4KC6\nI(BAC)300A40\r\nB55\n")
	if len(got) != 3 || f.BadFrames != 0 {
		t.Fatalf("%d samples, faults %+v", len(got), *f)
	}
	for _, c := range []struct {
		sample, ch int
		want       uint16
	}{
		{0, Curl, 4}, {0, Curl + 1, 5}, {0, Curl + 2, 6}, {0, Splay + 1, 7}, {0, Trigger, 9}, {0, Flag + 3, MaxESP32}, {0, Splay, MaxESP32 / 2},
		{0, Joint + 5, 5}, // index MCP reads the index curl
		{1, Curl, 40}, {1, Curl + 1, 5}, {1, Flag + 3, 0}, {1, Flag + 1, MaxESP32}, {1, Splay + 1, 7},
		{1, Joint + 6, 300}, {1, Joint + 5, 0}, {1, Joint + 1, 40}, // the index sent its PIP: its others are its own (none yet)
		{2, Curl + 1, 55}, {2, Joint + 6, 300}, {2, Joint + 5, 0}, {2, Flag + 1, 0},
	} {
		if got[c.sample][c.ch] != c.want {
			t.Errorf("sample %d, %s: %d, want %d", c.sample, Names[c.ch], got[c.sample][c.ch], c.want)
		}
	}
}

// TestALineThatIsNotWholeAndWellFormedIsNeverASample: every kind of bad
// line is rejected whole and counted, and the good line after it is read.
func TestALineThatIsNotWholeAndWellFormedIsNeverASample(t *testing.T) {
	long := "A1" + strings.Repeat("(QQ)1", MaxLine/5) + "\n"
	for _, tc := range []struct {
		name, line string
		count      func(f *devices.Faults) uint64
		want       uint64
	}{
		{"a lower-case byte", "A1b2\n", bad, 1},
		{"a control byte", "A1\x00B2\n", bad, 1},
		{"a digit without a key", "12A3\n", bad, 1},
		{"a value key without its value", "A1B\n", bad, 1},
		{"a value above the maximum", "A4096\n", outOfRange, 1},
		{"six digits", "A000001\n", outOfRange, 1},
		{"two lines run together", "A1B2C3A4B5\n", bad, 1},
		{"a flag twice", "A1HH\n", bad, 1},
		{"no value at all", "HIJ\n", bad, 1},
		{"unknown keys only", "Q1(XY)2\n", bad, 1},
		{"an open bracket", "(AB\n", bad, 1},
		{"an empty bracket", "()5A1\n", bad, 1},
		{"a line too long", long, bad, 1},
		{"a line too long, without its newline for a while", strings.Repeat("A1", MaxLine) + "\n", bad, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, f := newParser(t, MaxESP32)
			got := lines(t, p, tc.line+"A77\n")
			if len(got) != 1 || got[0][Curl] != 77 || got[0][Curl+1] != 0 {
				t.Fatalf("samples %v: want only the good line's", got)
			}
			if n := tc.count(f); n != tc.want {
				t.Errorf("counted %d, want %d (faults %+v)", n, tc.want, *f)
			}
		})
	}
}

func bad(f *devices.Faults) uint64        { return f.BadFrames }
func outOfRange(f *devices.Faults) uint64 { return f.OutOfRange + 100*(f.BadFrames-1) }

// TestUnknownKeysAreCountedAndSkipped: a key the table does not have is
// skipped with its digits, counted, and the line is a sample.
func TestUnknownKeysAreCountedAndSkipped(t *testing.T) {
	p, f := newParser(t, MaxESP32)
	got := lines(t, p, "A1Q5(AZZ)77B2(ZA)\n")
	if len(got) != 1 || got[0][Curl] != 1 || got[0][Curl+1] != 2 || f.UnknownKeys != 3 || f.BadFrames != 0 {
		t.Errorf("samples %v, faults %+v", got, *f)
	}
}

// TestTheInfoReplyIsRecordedAndIsNoSample: Z with (ZV) (ZG) (ZH) says the
// firmware, type and hand; empty lines are skipped without a count.
func TestTheInfoReplyIsRecordedAndIsNoSample(t *testing.T) {
	p, f := newParser(t, MaxESP32)
	got := lines(t, p, "\n\r\nZ(ZV)3(ZG)0(ZH)0\n")
	if i := p.Info(); len(got) != 0 || !i.Seen || i.Firmware != 3 || i.Device != 0 || i.Hand != 0 || f.BadFrames != 0 {
		t.Errorf("samples %v, info %+v, faults %+v", got, i, *f)
	}
	if describe(p.Info()) != "OpenGloves glove (alpha encoding, firmware 3, left)" {
		t.Errorf("described as %q", describe(p.Info()))
	}
}

// TestResetDiscardsTheCutOffLineAndForgetsTheValues: after Reset the
// bytes up to the first newline are a line cut off, and the values held
// are the starting ones again.
func TestResetDiscardsTheCutOffLineAndForgetsTheValues(t *testing.T) {
	p, _ := newParser(t, MaxESP32)
	lines(t, p, "A5(BB)9(AAB)3\n")
	p.Feed([]byte("B1"))
	p.Reset()
	if p.Buffered() != 0 {
		t.Fatal("Reset kept bytes")
	}
	var s devices.Sample
	p.Feed([]byte("7C3\nC4\n"))
	if ev, _ := p.Next(&s); ev != devices.GotSample || s.Raw[Curl+2] != 4 || s.Raw[Curl] != 0 || s.Raw[Splay+1] != MaxESP32/2 || s.Raw[Joint+1] != 0 {
		t.Errorf("after Reset: %v %v", ev, s.Sensors())
	}
}

// TestAnAVRGlovesValuesAreTenBits: at full scale 1023 the samples say
// 10 bits, read as the same 8-bit counts, and 1024 is out of range.
func TestAnAVRGlovesValuesAreTenBits(t *testing.T) {
	p, f := newParser(t, MaxAVR)
	var s devices.Sample
	p.Feed([]byte("\nA1023B512\nA1024\n"))
	if ev, _ := p.Next(&s); ev != devices.GotSample || s.Bits != 10 || s.Counts(Curl) != 1023.0/4 || s.Counts(Splay) != float64(MaxAVR/2)/4 {
		t.Fatalf("%v: bits %d, counts %v", ev, s.Bits, s.Counts(Curl))
	}
	if ev, _ := p.Next(&s); ev != devices.NeedMore || f.OutOfRange != 1 {
		t.Errorf("1024 at full scale 1023: %v, faults %+v", ev, *f)
	}
	if _, err := NewParser(1000, nil); err == nil || !strings.Contains(err.Error(), "want 1023") {
		t.Errorf("full scale 1000: %v", err)
	}
}

// TestTheBufferStaysBoundedAndDroppedBytesCostTheirLine: bytes fed
// without Next are dropped oldest first, counted, and the line they cut
// is not a sample.
func TestTheBufferStaysBoundedAndDroppedBytesCostTheirLine(t *testing.T) {
	p, f := newParser(t, MaxESP32)
	line := AppendLine(nil, values(1, 2, 3), Form{Splay: true})
	for range 2 * bufCap / len(line) {
		p.Feed(line)
	}
	if p.Buffered() > bufCap || f.SkippedBytes == 0 {
		t.Fatalf("buffered %d, faults %+v", p.Buffered(), *f)
	}
	var s devices.Sample
	n := 0
	for ev, _ := p.Next(&s); ev == devices.GotSample; ev, _ = p.Next(&s) {
		n++
	}
	if held := p.Buffered(); n == 0 || n > bufCap/len(line) || held != 0 {
		t.Errorf("%d samples, %d bytes left", n, held)
	}
}

// TestParsingAllocatesNothing: feeding and parsing firmware lines, every
// key there is among them, allocates nothing.
func TestParsingAllocatesNothing(t *testing.T) {
	p, _ := newParser(t, MaxESP32)
	in := AppendLine(AppendLine(nil, values(1, 2, 3, 1), Form{Splay: true, Joints: true}), values(4, 5, 6), Form{})
	in = append(in, "Q1\nZ(ZV)1\nbad\n"...)
	var s devices.Sample
	allocs := testing.AllocsPerRun(100, func() {
		p.Feed(in)
		for ev, _ := p.Next(&s); ev != devices.NeedMore; ev, _ = p.Next(&s) {
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per pass", allocs)
	}
}

// FuzzParser: any bytes, fed in pieces of any size, give samples of 41
// channels within the full scale and never a panic; the buffer stays
// bounded; and two clean lines after them come out last, as sent.
func FuzzParser(f *testing.F) {
	f.Add(AppendLine(nil, values(1, 2, 3, 4), Form{Splay: true}), uint8(0))
	f.Add([]byte("A1B2\nA4096\n(AB)Z(ZH)1\nHIJ\n\r\n(QQ"), uint8(3))
	f.Add(AppendLine(nil, values(4000, 5, 6), Form{Joints: true}), uint8(0x31))
	f.Fuzz(func(t *testing.T, b []byte, opt uint8) {
		max := MaxESP32
		if opt&1 != 0 {
			max = MaxAVR
		}
		p, _ := newParser(t, max)
		a, c := values(11, 12, 13, 2), values(21, 22, 23, 6)
		in := slices.Concat(b, []byte("\n"), AppendLine(nil, a, Form{Splay: true}), AppendLine(nil, c, Form{}))
		piece := 1 + int(opt>>1)
		var s devices.Sample
		var last [][]uint16
		for rest := in; len(rest) > 0; {
			n := min(piece, len(rest))
			p.Feed(rest[:n])
			rest = rest[n:]
			for ev, _ := p.Next(&s); ev != devices.NeedMore; ev, _ = p.Next(&s) {
				if s.N != Channels || s.NAngles != 0 || (s.Bits != 10 && s.Bits != 12) {
					t.Fatalf("a sample of %d channels, %d angles, %d bits", s.N, s.NAngles, s.Bits)
				}
				for i, v := range s.Sensors() {
					if int(v) > max {
						t.Fatalf("channel %s reads %d, over %d", Names[i], v, max)
					}
				}
				last = append(last, slices.Clone(s.Sensors()))
			}
			if p.Buffered() > bufCap {
				t.Fatalf("%d bytes buffered", p.Buffered())
			}
		}
		if len(last) < 2 {
			t.Fatalf("the clean lines gave %d samples", len(last))
		}
		if x, y := last[len(last)-2], last[len(last)-1]; x[Curl] != 11 || x[Splay+4] != 16 || x[Flag+2] != uint16(max) || y[Curl+4] != 25 || y[Splay+4] != 16 || y[Flag+6] != uint16(max) || y[Flag+2] != 0 {
			t.Fatalf("the clean lines came out as %v and %v", x, y)
		}
	})
}

// BenchmarkParser parses LucidGloves lines with splay read 256 bytes at a
// time, as a serial port gives them.
func BenchmarkParser(b *testing.B) {
	var stream []byte
	for i := range 1000 {
		stream = AppendLine(stream, values(uint16(i%4000), uint16(i%3000), 2000, i%8), Form{Splay: true})
	}
	p, _ := newParser(b, MaxESP32)
	var s devices.Sample
	b.ReportAllocs()
	b.SetBytes(int64(len(stream)))
	samples := 0
	for b.Loop() {
		for rest := stream; len(rest) > 0; {
			n := min(256, len(rest))
			p.Feed(rest[:n])
			rest = rest[n:]
			for ev, _ := p.Next(&s); ev == devices.GotSample; ev, _ = p.Next(&s) {
				samples++
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(max(samples, 1)), "ns/sample")
}

// TestAFeedbackLineIsTheDriversForceFeedbackThenTheHapticKeys: the
// force-feedback keys as the OpenGloves driver formats them, and a
// pulse's keys with two decimals on the same line.
func TestAFeedbackLineIsTheDriversForceFeedbackThenTheHapticKeys(t *testing.T) {
	servo := [5]uint16{0, 1000, 450, 7, 0}
	if got := string(AppendFeedback(nil, &servo, 160, 0.04, 0)); got != "A0B1000C450D7E0\n" {
		t.Errorf("without a pulse: %q", got)
	}
	if got := string(AppendFeedback(nil, &servo, 160, 0.04, 0.5)); got != "A0B1000C450D7E0F160.00G0.04H0.50\n" {
		t.Errorf("with a pulse: %q", got)
	}
	b := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { b = AppendFeedback(b[:0], &servo, 160, 0.04, 0.5) }); n != 0 {
		t.Errorf("%v allocations", n)
	}
}
