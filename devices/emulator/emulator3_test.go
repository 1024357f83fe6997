package emulator

import (
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove"
	"github.com/gloved/gloved/devices/cyberglove/layout"
)

// TestEmulatedIIIAnswersItsCommands: 1S is refused until 1eu enables USB
// streaming; then 1S is echoed and the stream is the 16-bit one, whose
// records Parser3 reads back as the values the emulator reported; an
// I/II does not know either command.
func TestEmulatedIIIAnswersItsCommands(t *testing.T) {
	var reported [][]uint16
	e, err := New(Opts{Model: cyberglove.ModelIII, Sensors: 18, Right: true, Seed: 2,
		Source: func(_ time.Duration, s *[layout.Slots]uint16) {
			for k := range s {
				s[k] = uint16(10 * (k + 1))
			}
		},
		OnRecord: func(v []uint16) { reported = append(reported, append([]uint16(nil), v...)) }})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ in, out string }{{"1S", "e?\x00"}, {"1eu", "1eu\x00"}, {"1S", "1S"}} {
		if got := string(e.handle([]byte(tc.in))); got != tc.out {
			t.Errorf("%q: answered %q, want %q", tc.in, got, tc.out)
		}
	}
	if !e.streaming || !e.wide {
		t.Fatal("1S did not start the 16-bit stream")
	}
	p := cyberglove.NewParser3(18, nil)
	for range 3 {
		p.Feed(e.record3())
	}
	var s devices.Sample
	for i := range 2 {
		if ev, _ := p.Next(&s); ev != devices.GotSample || len(s.Sensors()) != len(reported[i]) {
			t.Fatalf("record %d: event %v, sample %+v", i, ev, s)
		}
		for k, v := range s.Sensors() {
			source := 10 * (layout.Sensors18[k] + 1)
			if d := int(v) - 16*source; v != reported[i][k] || d < -8 || d > 7 {
				t.Fatalf("record %d sensor %d: parsed %d, reported %d, want the 8-bit %d at 12 bits", i, k, v, reported[i][k], source)
			}
		}
	}
	two, _ := New(Opts{Sensors: 22, Source: func(time.Duration, *[layout.Slots]uint16) {}})
	if got := string(two.handle([]byte("1eu"))); got != "e?\x00" {
		t.Errorf("an I/II answered 1eu with %q", got)
	}
	// The "eu" left waiting for a '\r' is abandoned at the next program's
	// ^C: its queries are answered (they went unanswered for good).
	if got := string(two.handle([]byte("\x03?S"))); got != "?S\x16\x00" {
		t.Errorf("after 1eu, ^C ?S was answered %q", got)
	}
}
