package vrchat_test

import (
	"maps"
	"math"
	"strings"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/osctest"
	"github.com/gloved/gloved/osc/profile"
	"github.com/gloved/gloved/osc/vrchat"
)

// sent decodes a tick's bare messages into parameter name (without the
// prefix) and value (a bool as true or false), checking each against
// Methods for hand: its type and its range.
func sent(t *testing.T, packets [][]byte, hand string) map[string]any {
	t.Helper()
	contract := map[string]*osc.Method{}
	ms := vrchat.Methods()
	for i := range ms {
		contract[ms[i].Address("", hand)] = &ms[i]
	}
	out := map[string]any{}
	for _, pk := range packets {
		p, err := goosc.ParsePacket(string(pk))
		if err != nil {
			t.Fatal(err)
		}
		m, ok := p.(*goosc.Message)
		if !ok {
			t.Fatalf("a %T: VRChat is sent bare messages", p)
		}
		c, ok := contract[m.Address]
		if !ok {
			t.Fatalf("%s %v is not in the contract", m.Address, m.Arguments)
		}
		if err := c.CheckArgs(m.Arguments, osc.Shape{}); err != nil {
			t.Fatalf("%v: %v", m.Arguments, err)
		}
		name := strings.TrimPrefix(m.Address, vrchat.Prefix)
		if _, twice := out[name]; twice {
			t.Fatalf("%s sent twice in a tick", name)
		}
		out[name] = m.Arguments[0]
	}
	return out
}

// TestValuesAreTypedAndInRange: over the recorded grasp and simulated
// pinches, fists and taps of either hand, every parameter sent is in the
// contract, a float in its range (curl and proximity 0 to 1, velocity -1
// to 1), a bool typed T or F; each is sent at most once a tick, and over
// the run every one of them is sent, the events (touch, pinch, fist) both
// true and false.
func TestValuesAreTypedAndInRange(t *testing.T) {
	for _, s := range []struct {
		side, motion string
		want         []string
	}{
		{"right", "", []string{"index/touch", "middle/touch"}},
		{"left", "pinch", []string{"index/pinch"}},
		{"right", "fist", []string{"fist"}},
	} {
		spec := osctest.Recording()
		if s.motion != "" {
			spec = osctest.Sim(s.side, s.motion)
		}
		seen := map[string]map[any]bool{}
		var e *vrchat.Hand
		var w osc.Writer
		osctest.Run(t, spec, 400, func(f osctest.Frame) {
			if e == nil {
				e = vrchat.NewHand(f.Pipeline.Hand(), s.side, vrchat.Options{Names: vrchat.DefaultNames, Band: osctest.Proximity})
			}
			e.Frame(&w, f.Frame, f.At)
			for name, v := range sent(t, w.Packets(), s.side) {
				if seen[name] == nil {
					seen[name] = map[any]bool{}
				}
				seen[name][v] = true
			}
		})
		if len(seen) != 25 {
			t.Errorf("%s %s: %d parameters sent, want 25", s.side, s.motion, len(seen))
		}
		for _, p := range s.want {
			name := "gloved/" + s.side + "/" + p
			if !seen[name][true] || !seen[name][false] {
				t.Errorf("%s %s: %s was sent %v: want both true and false", s.side, s.motion, name, seen[name])
			}
		}
	}
}

// still is a flat hand's frame with its links at rest, for the tests
// that set contacts and joints by hand.
func still(t *testing.T) (*handmodel.Hand, *osc.Frame) {
	hand, err := handmodel.New(handmodel.DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	poses := make([]geom.Transform, hand.NumLinks())
	hand.Pose(&handmodel.Angles{}, geom.Identity(), poses)
	f := &osc.Frame{Joints: make([]float64, handmodel.NumJoints)}
	for _, x := range poses {
		f.Links = append(f.Links, osc.PoseOf(x))
	}
	return hand, f
}

// ticks runs e over frames at 100 Hz from time 0, calling set before each
// to change it, and returns each frame's parameters sent.
func ticks(t *testing.T, e *vrchat.Hand, f *osc.Frame, n int, set func(i int)) []map[string]any {
	var w osc.Writer
	var out []map[string]any
	for i := range n {
		f.Sample = uint64(i)
		set(i)
		e.Frame(&w, f, osctest.Epoch.Add(time.Duration(i)*10*time.Millisecond))
		out = append(out, sent(t, w.Packets(), "right"))
		f.Touches, f.Pinches, f.Fists = f.Touches[:0], f.Pinches[:0], f.Fists[:0]
	}
	return out
}

// TestProximityIsOneAtTouchAndZeroAtTheBandsEdge: a finger touching reads
// 1, at half the band 0.5, at the band's edge and beyond 0; the nearest
// of its links counts, and another hand's links count as the scene's.
func TestProximityIsOneAtTouchAndZeroAtTheBandsEdge(t *testing.T) {
	hand, f := still(t)
	tests := []struct {
		name string
		set  func()
		want float32
	}{
		{"touching", func() { f.Contacts = []osc.Contact{{Link: "index3", Object: "ball", Depth: 0.001}} }, 1},
		{"half the band", func() { f.Near = []osc.Near{{Link: "index2", Object: "ball", Distance: 0.005}} }, 0.5},
		{"nearest link", func() {
			f.Near = []osc.Near{{Link: "index1", Object: "ball", Distance: 0.008}, {Link: "index3", Object: "ball", Distance: 0.002}}
		}, 0.8},
		{"another hand", func() {
			f.HandNear = []osc.HandNear{{Other: "left", Link: "index3", OtherLink: "palm", Distance: 0.0025}}
		}, 0.75},
		{"the band's edge", func() { f.Near = []osc.Near{{Link: "index3", Object: "ball", Distance: 0.01}} }, 0},
		{"nothing near", func() {}, 0},
	}
	for _, tc := range tests {
		e := vrchat.NewHand(hand, "right", vrchat.Options{Names: vrchat.DefaultNames, Band: 0.01})
		f.Contacts, f.Near, f.HandNear = nil, nil, nil
		tc.set()
		got := ticks(t, e, f, 1, func(int) {})[0]
		if p := got["gloved/right/index/proximity"]; math.Abs(float64(p.(float32)-tc.want)) > 1e-6 {
			t.Errorf("%s: proximity %v, want %v", tc.name, p, tc.want)
		}
		if p := got["gloved/right/middle/proximity"]; p != float32(0) {
			t.Errorf("%s: the middle finger's proximity %v, want 0", tc.name, p)
		}
	}
}

// TestCurlIsZeroStraightAndOneAtTheLimits: a finger with its flexion
// joints at 0 (or bent backwards) reads 0, at their upper limits 1, half
// way 0.5; the thumb's are its MCP and IP.
func TestCurlIsZeroStraightAndOneAtTheLimits(t *testing.T) {
	hand, f := still(t)
	lim := hand.Limits
	tests := []struct {
		name   string
		joints map[handmodel.Joint]float64
		want   map[string]float32
	}{
		{"flat", nil, map[string]float32{"index": 0, "thumb": 0}},
		{"at the limits", map[handmodel.Joint]float64{handmodel.IndexMCP: lim[handmodel.IndexMCP].Max, handmodel.IndexPIP: lim[handmodel.IndexPIP].Max,
			handmodel.IndexDIP: lim[handmodel.IndexDIP].Max, handmodel.ThumbMCP: lim[handmodel.ThumbMCP].Max, handmodel.ThumbIP: lim[handmodel.ThumbIP].Max},
			map[string]float32{"index": 1, "thumb": 1, "middle": 0}},
		{"half way", map[handmodel.Joint]float64{handmodel.RingMCP: lim[handmodel.RingMCP].Max / 2, handmodel.RingPIP: lim[handmodel.RingPIP].Max / 2,
			handmodel.RingDIP: lim[handmodel.RingDIP].Max / 2}, map[string]float32{"ring": 0.5}},
		{"bent backwards", map[handmodel.Joint]float64{handmodel.LittleMCP: -0.5, handmodel.LittleDIP: -0.05}, map[string]float32{"little": 0}},
	}
	for _, tc := range tests {
		clear(f.Joints)
		for j, v := range tc.joints {
			f.Joints[j] = v
		}
		e := vrchat.NewHand(hand, "right", vrchat.Options{Names: vrchat.DefaultNames, Band: 0.01})
		got := ticks(t, e, f, 1, func(int) {})[0]
		for finger, want := range tc.want {
			if c := got["gloved/right/"+finger+"/curl"].(float32); math.Abs(float64(c-want)) > 1e-6 {
				t.Errorf("%s: %s curl %v, want %v", tc.name, finger, c, want)
			}
		}
	}
}

// TestVelocityIsTheApproachSpeed: a fingertip closing on the ball at 5
// cm a second, into it and back out at that speed, with an approach speed
// of 0.5 m/s, reads at the ticks (every 10 frames at 100 Hz): 0 before
// the band, 0.06 entering it (from its edge, 1 cm, to 7 mm in the tick),
// then 0.1, sent once as it does not change, again at the refresh, and
// -0.1 moving away.
func TestVelocityIsTheApproachSpeed(t *testing.T) {
	hand, f := still(t)
	e := vrchat.NewHand(hand, "right", vrchat.Options{Names: vrchat.DefaultNames, Band: 0.01, Approach: 0.5, Rate: 10})
	d := func(i int) float64 {
		if i < 100 {
			return 0.012 - 0.0005*float64(i) // enters the band at frame 4, touches from 24
		}
		return 0.0005*float64(i-100) - 0.038
	}
	got := ticks(t, e, f, 130, func(i int) {
		f.Contacts, f.Near = nil, nil
		if x := d(i); x <= 0 {
			f.Contacts = []osc.Contact{{Link: "index3", Object: "ball", Depth: -x}}
		} else if x < 0.01 {
			f.Near = []osc.Near{{Link: "index3", Object: "ball", Distance: x}}
		}
	})
	want := map[int]float32{0: 0, 10: 0.06, 20: 0.1, 100: 0.1, 110: -0.1}
	for i, m := range got {
		v, ok := m["gloved/right/index/velocity"]
		w, sent := want[i]
		if ok != sent || ok && math.Abs(float64(v.(float32)-w)) > 1e-4 {
			t.Errorf("frame %d (distance %.4f m): velocity %v sent %v, want %v sent %v", i, d(i), v, ok, w, sent)
		}
	}
}

// TestRateStaysWithinTheLimit: parameters changing at every frame of a
// 100 Hz glove go out at most Rate ticks a second (counted on the
// sample clock), each at most once a tick; every parameter at least once
// a second; nothing changed, nothing is sent but the refresh.
func TestRateStaysWithinTheLimit(t *testing.T) {
	hand, f := still(t)
	for _, rate := range []float64{10, 25} {
		e := vrchat.NewHand(hand, "right", vrchat.Options{Names: vrchat.DefaultNames, Band: 0.01, Rate: rate})
		got := ticks(t, e, f, 500, func(i int) {
			for j := range f.Joints {
				f.Joints[j] = 0.4 + 0.3*math.Sin(float64(i)/7+float64(j))
			}
		})
		sends, last := 0, map[string]int{}
		for i, m := range got {
			if len(m) > 0 {
				sends++
			}
			for name := range m {
				last[name] = i
			}
			for name, at := range last {
				if i-at > 100 {
					t.Fatalf("rate %v: %s not sent for %d frames (1 s is 100)", rate, name, i-at)
				}
			}
		}
		if limit := int(5*rate) + 1; sends > limit || sends < limit-2 {
			t.Errorf("rate %v: %d ticks sent in 5 s, want at most %d and about so many", rate, sends, limit)
		}
	}
	e := vrchat.NewHand(hand, "right", vrchat.Options{Names: vrchat.DefaultNames, Band: 0.01})
	clear(f.Joints)
	got := ticks(t, e, f, 300, func(int) {})
	total := 0
	for _, m := range got {
		total += len(m)
	}
	if total != 3*25 {
		t.Errorf("a still hand for 3 s: %d parameters sent, want the 3 refreshes of 25", total)
	}
}

// TestBoolsAreHeldUntilTheNextTick: a pinch that begins and ends between
// two ticks is sent true at the next tick and false at the one after; a
// touch (a contact for three frames) likewise.
func TestBoolsAreHeldUntilTheNextTick(t *testing.T) {
	hand, f := still(t)
	e := vrchat.NewHand(hand, "right", vrchat.Options{Names: vrchat.DefaultNames, Band: 0.01, Rate: 10})
	got := ticks(t, e, f, 40, func(i int) {
		f.Contacts = nil
		if i >= 13 && i < 16 {
			f.Contacts = []osc.Contact{{Link: "ring2", Object: "ball", Depth: 0.001}}
		}
		switch i {
		case 13:
			f.Pinches = []osc.Pinch{{Finger: "middle", Begin: true}}
		case 16:
			f.Pinches = []osc.Pinch{{Finger: "middle", Begin: false}}
		}
	})
	for _, name := range []string{"gloved/right/middle/pinch", "gloved/right/ring/touch"} {
		if got[0][name] != false || got[20][name] != true || got[30][name] != false {
			t.Errorf("%s at the ticks 0, 20, 30: %v %v %v, want false true false", name, got[0][name], got[20][name], got[30][name])
		}
	}
}

// TestGesturesCannotStick: a touch, a pinch and a fist that begin and
// end read false at the ticks after their end, however they end: in a
// frame that is not sent for a NaN (its end events still count), or by a
// new stream (a looping replay's next pass: its sample number goes back)
// that starts without them; a touch is its contacts', whatever /touch's
// events say.
func TestGesturesCannotStick(t *testing.T) {
	names := []string{"gloved/right/index/touch", "gloved/right/middle/pinch", "gloved/right/fist"}
	hand, f := still(t)
	begin := func() {
		f.Touches = []osc.Touch{{Link: "index3", Object: "ball", Begin: true}}
		f.Pinches = []osc.Pinch{{Finger: "middle", Begin: true}}
		f.Fists = []osc.Fist{{Begin: true}}
	}
	for _, tc := range []struct {
		name string
		end  func(i int) // at frame 25, with the contact gone
	}{
		{"ended in a frame not sent", func(int) {
			f.Links[0].P[0] = math.NaN()
			f.Touches = []osc.Touch{{Link: "index3", Object: "ball", Begin: false}}
			f.Pinches = []osc.Pinch{{Finger: "middle", Begin: false}}
			f.Fists = []osc.Fist{{Begin: false}}
		}},
		{"a new stream", func(i int) { f.Sample = uint64(i - 25) }},
	} {
		e := vrchat.NewHand(hand, "right", vrchat.Options{Names: vrchat.DefaultNames, Band: 0.01, Rate: 10})
		restart := false
		got := ticks(t, e, f, 50, func(i int) {
			f.Links[0].P[0] = 0
			f.Contacts = nil
			switch {
			case i >= 5 && i < 25:
				f.Contacts = []osc.Contact{{Link: "index3", Object: "ball", Depth: 0.001}}
				if i == 5 {
					begin()
				}
			case i == 25 || restart:
				restart = tc.name == "a new stream"
				tc.end(i)
			}
		})
		f.Links[0].P[0] = 0
		// What VRChat holds after each frame: the last value sent.
		held := make([]map[string]any, len(got))
		for i, m := range got {
			held[i] = map[string]any{}
			if i > 0 {
				maps.Copy(held[i], held[i-1])
			}
			maps.Copy(held[i], m)
		}
		// The tick at 30 holds frames 21 to 24, when they were on.
		at := []int{20, 40, 49}
		if restart {
			at = []int{20, 25, 49} // a new stream ticks at once, from nothing held
		}
		for _, name := range names {
			if held[at[0]][name] != true || held[at[1]][name] != false || held[at[2]][name] != false {
				t.Errorf("%s: %s after the frames %v: %v %v %v, want true false false", tc.name, name, at, held[at[0]][name], held[at[1]][name], held[at[2]][name])
			}
		}
	}
}

// TestNamesAreTemplatesAndOffWhenEmpty: a hand named left with
// {Hand}{Finger}Curl sends LeftIndexCurl; an empty name is never sent.
func TestNamesAreTemplatesAndOffWhenEmpty(t *testing.T) {
	hand, f := still(t)
	names, err := vrchat.WithDefaults(map[string]string{"curl": "{Hand}{Finger}Curl", "velocity": "", "fist": "Fist_{hand}"})
	if err != nil {
		t.Fatal(err)
	}
	e := vrchat.NewHand(hand, "left", vrchat.Options{Names: names, Band: 0.01})
	var w osc.Writer
	e.Frame(&w, f, osctest.Epoch)
	var got []string
	for _, pk := range w.Packets() {
		p, err := goosc.ParsePacket(string(pk))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.TrimPrefix(p.(*goosc.Message).Address, vrchat.Prefix))
	}
	all := strings.Join(got, " ")
	if len(got) != 20 || !strings.Contains(all, "LeftIndexCurl") || !strings.Contains(all, "Fist_left") || strings.Contains(all, "velocity") || !strings.Contains(all, "gloved/left/thumb/proximity") {
		t.Errorf("sent %v", got)
	}
}

// TestNamesCheckSaysWhatIsWrong: each bad table is one line naming the
// key and what to write.
func TestNamesCheckSaysWhatIsWrong(t *testing.T) {
	tests := []struct {
		table map[string]string
		hands []string
		says  string
	}{
		{map[string]string{"curl": "gloved/{hand}/curl"}, []string{"right"}, "parameters.curl"},
		{map[string]string{"touch": "{finger}_touch"}, []string{"right", "left"}, "{hand}"},
		{map[string]string{"pinch": "pinch {finger}{hand}"}, []string{"right"}, "no spaces"},
		{map[string]string{"fist": "gloved/{hand}/{nope}"}, []string{"right"}, "parameters.fist"},
		{map[string]string{"proximity": "gloved/{hand}/{finger}/curl"}, []string{"right"}, "another parameter's"},
		{map[string]string{"grip": "x"}, []string{"right"}, "parameters.grip"},
		{map[string]string{"fist": "{finger}"}, []string{"right"}, "no {finger}"},
		{map[string]string{"fist": "gloved/{hand}/{Finger}fist"}, []string{"right"}, "one parameter per hand"},
	}
	for _, tc := range tests {
		n, err := vrchat.WithDefaults(tc.table)
		if err == nil {
			err = n.Check(tc.hands)
		}
		if err == nil || !strings.Contains(err.Error(), tc.says) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v for hands %v: got %v, want one line saying %q", tc.table, tc.hands, err, tc.says)
		}
	}
	if err := vrchat.DefaultNames.Check([]string{"right", "left"}); err != nil {
		t.Errorf("the default names: %v", err)
	}
}

// encoder is the profile at a tick of the recording's grasp half-way,
// every parameter due (a refresh).
func encoder(tb testing.TB) func() {
	return osctest.Repeat(tb, func(f osctest.Frame) profile.Encoder {
		return vrchat.NewHand(f.Pipeline.Hand(), "right", vrchat.Options{Names: vrchat.DefaultNames, Band: osctest.Proximity})
	})
}

// TestFrameAllocatesNothing: a tick allocates nothing once the writer has
// grown.
func TestFrameAllocatesNothing(t *testing.T) { osctest.AllocatesNothing(t, encoder(t)) }

// BenchmarkFrame: a tick sending all 25 parameters of a hand grasping
// (the frame's contacts and near links read, curls, velocities).
func BenchmarkFrame(b *testing.B) { osctest.Benchmark(b, encoder(b)) }
