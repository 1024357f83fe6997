package emulator

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/devices/cyberglove/layout"
)

// level is a pose that reads v on every slot.
func level(v float64) [layout.Slots]float64 {
	var p [layout.Slots]float64
	for k := range p {
		p[k] = v
	}
	return p
}

func testScript(t *testing.T, noise float64) *Script {
	t.Helper()
	s, err := NewScript(map[string][layout.Slots]float64{"low": level(20), "mid": level(100.4), "high": level(300)}, "low", noise, 1)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// playing returns the reading of slot 0 at t.
func playing(s *Script, t time.Duration) uint16 {
	var slots [layout.Slots]uint16
	s.Source(t, &slots)
	return slots[0]
}

const ms = time.Millisecond

// TestScriptPlaysStepsInOrder: timed steps hold for their time one after
// another, an untimed one until the next arrives, and the last one holds;
// readings are rounded and kept in 1..254.
func TestScriptPlaysStepsInOrder(t *testing.T) {
	s := testScript(t, 0)
	var changes []string
	s.OnChange = func(_ time.Duration, p string) { changes = append(changes, p) }
	if got := playing(s, 0); got != 20 {
		t.Fatalf("first pose reads %d, want 20", got)
	}
	playing(s, 100*ms) // steps queued now arrive at 100 ms
	if err := s.Play(Step{"mid", 50 * ms}, Step{"high", 20 * ms}, Step{"mid", 0}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		at   time.Duration
		want uint16
	}{{100 * ms, 100}, {149 * ms, 100}, {150 * ms, 254}, {169 * ms, 254}, {170 * ms, 100}, {10 * time.Second, 100}} {
		if got := playing(s, tc.at); got != tc.want {
			t.Errorf("at %v: reads %d, want %d", tc.at, got, tc.want)
		}
	}
	if strings.Join(changes, " ") != "mid high mid" {
		t.Errorf("changes %v", changes)
	}
	// A timed step that ran out holds until the next step arrives.
	s.Play(Step{"low", 10 * ms})
	playing(s, 11*time.Second)
	playing(s, 12*time.Second)
	s.Play(Step{"high", 0})
	if got := playing(s, 12*time.Second); got != 254 {
		t.Errorf("after a finished timed step, the next plays at once: %d", got)
	}
}

// TestScriptNoiseHasTheStatedSpread: the noise added has the standard
// deviation asked for and no bias.
func TestScriptNoiseHasTheStatedSpread(t *testing.T) {
	s := testScript(t, 2)
	s.Play(Step{"mid", 0})
	var sum, ss float64
	n := 0
	for i := range 2000 {
		var slots [layout.Slots]uint16
		s.Source(time.Duration(i)*ms, &slots)
		for _, v := range slots {
			d := float64(v) - 100.4
			sum, ss, n = sum+d, ss+d*d, n+1
		}
	}
	mean := sum / float64(n)
	sd := math.Sqrt(ss/float64(n) - mean*mean)
	// Rounding adds a uniform error of variance 1/12.
	if want := math.Sqrt(4 + 1.0/12); math.Abs(mean) > 0.05 || math.Abs(sd-want) > 0.05 {
		t.Errorf("noise mean %.3f sd %.3f, want 0 and %.3f", mean, sd, want)
	}
}

func TestScriptFilesAndLines(t *testing.T) {
	s := testScript(t, 0)
	if err := s.Load("poses.txt", strings.NewReader("# warm up\nmid 0.5\n\nhigh 1 # then up\nlow\n")); err != nil {
		t.Fatal(err)
	}
	if got := []uint16{playing(s, 0), playing(s, 600*ms), playing(s, 1600*ms)}; got[0] != 100 || got[1] != 254 || got[2] != 20 {
		t.Errorf("script played %v, want 100 254 20", got)
	}
	for _, tc := range []struct{ text, says string }{
		{"mid 0.5\nfist 1\n", `poses.txt line 2: emulator: no pose "fist" (have high, low, mid)`},
		{"mid\nhigh 1\n", "poses.txt line 1: pose mid needs its seconds"},
		{"mid -1\n", `poses.txt line 1: emulator: "-1": want seconds after the pose, 0.001 to 1000000`},
		{"mid 1e-9\nlow\n", `poses.txt line 1: emulator: "1e-9": want seconds`},
		{"mid 1 2\n", `line 1: emulator: "mid 1 2"`},
	} {
		if err := testScript(t, 0).Load("poses.txt", strings.NewReader(tc.text)); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%q: got %v, want %q", tc.text, err, tc.says)
		}
	}
	if _, err := NewScript(map[string][layout.Slots]float64{}, "flat", 0, 1); err == nil {
		t.Error("a first pose that is not a pose was accepted")
	}
	if _, err := NewScript(map[string][layout.Slots]float64{"flat": {}}, "flat", -1, 1); err == nil {
		t.Error("negative noise was accepted")
	}
}

// FuzzScriptLoad: any script text is either refused whole or played; the
// readings stay in 1..254 and ParseStep never gives a negative duration.
func FuzzScriptLoad(f *testing.F) {
	f.Add("mid 0.5\nhigh 1\nlow\n")
	f.Add("# warm up\n\nmid 0.001 # short\nlow 999999\n")
	f.Add("mid NaN\nhigh Inf\n")
	f.Fuzz(func(t *testing.T, text string) {
		s := testScript(t, 0.5)
		before := len(s.steps)
		err := s.Load("f", strings.NewReader(text))
		if err != nil && len(s.steps) != before {
			t.Fatalf("a refused script queued %d steps", len(s.steps)-before)
		}
		for _, st := range s.steps {
			if st.For < 0 {
				t.Fatalf("step %+v", st)
			}
		}
		for i := range 20 {
			if v := playing(s, time.Duration(i)*250*ms); v < 1 || v > 254 {
				t.Fatalf("reading %d", v)
			}
		}
	})
}
