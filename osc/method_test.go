package osc

import (
	"math"
	"net/netip"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/internal/readmetest"
)

// testShape is a hand of 23 joint angles and 16 links, as the daemon's.
var testShape = Shape{Joints: 23, Links: 16}

// TestMethodsAreDescribed: every method of the contract has a path, a
// direction, a description, typed and named arguments and sane ranges,
// and no two share an address.
func TestMethodsAreDescribed(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range Methods() {
		if err := m.check(); err != nil {
			t.Error(err)
		}
		if seen[m.Path] {
			t.Errorf("%s is described twice", m.Path)
		}
		seen[m.Path] = true
	}
}

// TestMethodCheckRefusesBadRanges: a range whose bound is NaN or an
// infinity, or whose minimum is above its maximum, is refused whether
// one end is set or both; a sound one is taken.
func TestMethodCheckRefusesBadRanges(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name string
		r    *Range
		ok   bool
	}{
		{"between", Between(0, 1), true},
		{"at least", AtLeast(0), true},
		{"one value", Between(3, 3), true},
		{"values", OneOf("a", "b"), true},
		{"NaN minimum alone", AtLeast(nan), false},
		{"NaN maximum alone", &Range{Max: nan, HasMax: true}, false},
		{"NaN minimum of two", Between(nan, 1), false},
		{"NaN maximum of two", Between(0, nan), false},
		{"infinite minimum", AtLeast(-inf), false},
		{"infinite maximum", Between(0, inf), false},
		{"minimum above maximum", Between(1, 0), false},
	}
	for _, tc := range tests {
		m := Method{Path: "/x", Access: Sent, Description: "d", When: "w", Args: []Arg{{Type: 'f', Name: "v", Range: tc.r}}}
		if err := m.check(); (err == nil) != tc.ok {
			t.Errorf("%s: got %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}

// TestMarkdownEscapesBars: a | in a description, a when or a value is
// written \| so that the row keeps its four cells.
func TestMarkdownEscapesBars(t *testing.T) {
	m := Method{Path: "{prefix}/a|b", Access: Sent, When: "x | y", Description: "left | right",
		Args: []Arg{{Type: 's', Name: "side", Range: OneOf("l|r", "r")}}}
	got := strings.Split(Markdown([]Method{m}), "\n")[2]
	want := "| `<prefix>/a\\|b` | `s` side: l\\|r, r | x \\| y | left \\| right |"
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if cells := strings.Count(strings.ReplaceAll(got, `\|`, ""), "|"); cells != 5 {
		t.Errorf("%s: %d bars, want the 5 of four cells", got, cells)
	}
}

// TestMethodsInOtherCoordinatesSayTheirUnitsAndAxes: gloved's contract
// in each preset (a gloved profile's) gives every length of a hand's
// frames in the preset's unit (Unreal's in distance.cm) and ends the
// descriptions of the messages holding positions or directions with the
// preset's axes; the rest, and what gloved accepts and answers, is the
// contract in gloved's own coordinates. A frame carried into the preset
// (ConvertFrame) follows it.
func TestMethodsInOtherCoordinatesSayTheirUnitsAndAxes(t *testing.T) {
	own := Methods()
	positional := map[string]bool{"links": true, "contact": true, "near": true, "self": true, "hand": true}
	for _, c := range geom.Conventions {
		ms := MethodsIn(c)
		if len(ms) != len(own) {
			t.Fatalf("%s: %d methods, %d in gloved's coordinates", c.Name(), len(ms), len(own))
		}
		for i := range ms {
			m, g := &ms[i], &own[i]
			if err := m.check(); err != nil {
				t.Error(err)
			}
			name := m.Path[strings.LastIndex(m.Path, "/")+1:]
			converted := m.ForHand() && m.Access == Sent
			for k, a := range append(append([]Arg(nil), m.Args...), m.Each...) {
				want := append(append([]Arg(nil), g.Args...), g.Each...)[k].Unit
				if converted && want == "distance.m" {
					want = LengthUnit(c)
				}
				if a.Unit != want {
					t.Errorf("%s: %s %s: unit %q, want %q", c.Name(), m.Path, a.Name, a.Unit, want)
				}
			}
			wantDesc := g.Description
			if converted && positional[name] && !c.Identity() {
				wantDesc += " " + InCoordinates(c)
			}
			if m.Description != wantDesc {
				t.Errorf("%s: %s: %q, want %q", c.Name(), m.Path, m.Description, wantDesc)
			}
		}
		var w Writer
		w.Begin(1)
		var conv Frame
		ConvertFrame(&conv, fullFrame(), c)
		AppendFrame(&w, HandAddresses("/gloved", "right"), &conv)
		byAddr := map[string]*Method{}
		for i := range ms {
			byAddr[ms[i].Address("/gloved", "right")] = &ms[i]
		}
		for _, msg := range decodeAll(t, w.Packets()) {
			if err := byAddr[msg.Address].CheckArgs(msg.Arguments, testShape); err != nil {
				t.Errorf("%s: %v", c.Name(), err)
			}
		}
	}
	links := MethodsIn(geom.Unreal)[3]
	if links.Each[0].Unit != "distance.cm" || !strings.HasSuffix(links.Description, "In unreal's coordinates (left-handed, +Z up, +X forward, +Y right), lengths in centimetres.") {
		t.Errorf("unreal's /links: %+v", links)
	}
}

// TestMethodExpandsPerHand: a repeated group repeats once per joint or
// link of the hand's shape, after the fixed arguments.
func TestMethodExpandsPerHand(t *testing.T) {
	byPath := methodsByAddress("/gloved", "right")
	tests := []struct {
		path, want string
	}{
		{"/gloved/right/frame", "ifi"},
		{"/gloved/right/joints", strings.Repeat("f", 23)},
		{"/gloved/right/links", strings.Repeat("f", 7*16)},
		{"/gloved/right/contact", "ssfffffff"},
		{"/gloved/subscribe", "sis"},
	}
	for _, tc := range tests {
		if got := byPath[tc.path].TypeTags(testShape); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.path, got, tc.want)
		}
	}
	bools := Method{Path: "/b", Access: Sent, Args: []Arg{{Type: 'T', Name: "on"}}}
	for tags, want := range map[string]bool{"T": true, "F": true, "i": false, "TT": false} {
		if got := bools.Matches(tags, Shape{}); got != want {
			t.Errorf("a bool method matching %q: got %v, want %v", tags, got, want)
		}
	}
	sub := byPath["/gloved/subscribe"]
	for tags, want := range map[string]bool{"si": true, "sis": true, "s": false, "sisi": false, "sii": false} {
		if got := sub.Matches(tags, testShape); got != want {
			t.Errorf("/subscribe, its token optional, matching %q: got %v, want %v", tags, got, want)
		}
	}
}

// TestOnlyTheLastArgumentsMayBeOptional: a method with an optional
// argument before a required one, or beside a repeated group, cannot be
// described.
func TestOnlyTheLastArgumentsMayBeOptional(t *testing.T) {
	opt, req := Arg{Type: 's', Name: "token", Optional: true}, Arg{Type: 'i', Name: "port"}
	for _, tc := range []struct {
		m  Method
		ok bool
	}{
		{Method{Args: []Arg{req, opt}}, true},
		{Method{Args: []Arg{req, opt, opt}}, true},
		{Method{Args: []Arg{opt, req}}, false},
		{Method{Args: []Arg{req, opt}, Each: []Arg{req}, Per: PerJoint}, false},
	} {
		m := tc.m
		m.Path, m.Access, m.Description, m.When = "/x", Accepted, "d", "w"
		if err := m.check(); (err == nil) != tc.ok {
			t.Errorf("%+v: got %v, want ok %v", m.Args, err, tc.ok)
		}
	}
}

// methodsByAddress indexes the contract by its addresses for one hand.
func methodsByAddress(prefix, hand string) map[string]*Method {
	out := map[string]*Method{}
	ms := Methods()
	for i := range ms {
		out[ms[i].Address(prefix, hand)] = &ms[i]
	}
	return out
}

// conform checks that each message is a method of the contract going the
// given way, its arguments of the method's types and in its ranges
// (CheckArgs), and returns the methods seen.
func conform(t *testing.T, ms []*goosc.Message, access Access) map[string]bool {
	t.Helper()
	byAddr := methodsByAddress("/gloved", "right")
	seen := map[string]bool{}
	for _, msg := range ms {
		m, ok := byAddr[msg.Address]
		if !ok {
			t.Errorf("%s is not in the contract", msg.Address)
			continue
		}
		if m.Access != access {
			t.Errorf("%s: the contract says access %d", msg.Address, m.Access)
		}
		if err := m.CheckArgs(msg.Arguments, testShape); err != nil {
			t.Error(err)
		}
		seen[m.Path] = true
	}
	return seen
}

// fullFrame is a frame holding one of every kind of entry.
func fullFrame() *Frame {
	f := frameFor(7)
	f.Joints = make([]float64, testShape.Joints)
	f.Links = make([]Pose, testShape.Links)
	for i := range f.Links {
		f.Links[i] = Pose{P: mgl64.Vec3{0, float64(i) / 100, 0}, Q: mgl64.QuatIdent()}
	}
	f.Self = []SelfContact{{A: "index3", B: "thumb3", Depth: 0.001, Point: mgl64.Vec3{0, 1, 0}}}
	f.Pinches = []Pinch{{Finger: "index", Begin: true, Distance: 0.004}}
	f.Fists = []Fist{{Begin: false, Distance: 0.05}}
	f.Hands = []HandContact{{Other: "left", Link: "index3", OtherLink: "palm", Depth: 0.002, Point: mgl64.Vec3{1, 1, 1}, Normal: mgl64.Vec3{0, 0, 1}}}
	f.HandNear = []HandNear{{Other: "left", Link: "index2", OtherLink: "palm", Distance: 0.006}}
	f.LOD = []LOD{{Other: "left", Level: 3}}
	f.Rate = 99.5
	f.Controls = Controls{On: true, JoystickX: -0.5, JoystickY: 1, Trigger: 0.25, Pressed: [len(ControlButtons)]bool{2: true, 4: true}}
	f.Feedback = Feedback{On: true, Force: [5]float64{0, 0.6, 0.45, 0, 1}, Pulse: 0.5}
	return f
}

// TestFrameMessagesFollowTheContract: every message AppendFrame writes is
// a method the contract says gloved sends, with its type tags, and every
// one of a hand's sent methods is written for a frame that holds one of
// each kind of entry.
func TestFrameMessagesFollowTheContract(t *testing.T) {
	var w Writer
	w.Begin(1)
	AppendFrame(&w, HandAddresses("/gloved", "right"), fullFrame())
	seen := conform(t, decodeAll(t, w.Packets()), Sent)
	for _, m := range Methods() {
		if m.ForHand() && m.Access == Sent && !seen[m.Path] {
			t.Errorf("%s is in the contract but a full frame has none", m.Path)
		}
	}
}

// sample returns a message for m with a valid value of each argument: a
// loopback host, port 9430, a unit quaternion and the origin.
func sample(m *Method) *goosc.Message {
	msg := goosc.NewMessage(m.Address("/gloved", "right"))
	for _, a := range m.Expand(testShape) {
		switch a.Type {
		case 's':
			msg.Append("127.0.0.1")
		case 'i':
			msg.Append(int32(9430))
		case 'f':
			v := float32(0)
			if strings.HasSuffix(a.Name, " qw") {
				v = 1
			}
			msg.Append(v)
		case 'T':
			msg.Append(true)
		}
	}
	return msg
}

// TestAcceptedMessagesFollowTheContract: a message built from each method
// the contract says gloved accepts, optional arguments included, is taken
// by the hub (not counted unknown or rejected), and the same one short of
// its required arguments is rejected; the hub's answers are methods the
// contract says it sends.
func TestAcceptedMessagesFollowTheContract(t *testing.T) {
	h, rec, _ := testHub(t, Policy{})
	wrists := 0
	h.OnWrist = func(string, mgl64.Vec3, mgl64.Quat) bool { wrists++; return true }
	from := netip.MustParseAddrPort("127.0.0.1:5000")
	var answers []*goosc.Message
	ms := Methods()
	accepted := 0
	for i := range ms {
		m := &ms[i]
		if m.Access != Accepted {
			continue
		}
		accepted++
		msg := sample(m)
		b, err := msg.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		h.handle(b, from)
		if n := h.Stats.Unknown.Load() + h.Stats.Rejected.Load(); n != 0 {
			t.Fatalf("%s %v: the hub counted it unknown or rejected", msg.Address, msg.Arguments)
		}
		short := goosc.NewMessage(msg.Address, msg.Arguments[:m.Required(testShape)-1]...)
		if b, err = short.MarshalBinary(); err != nil {
			t.Fatal(err)
		}
		h.handle(b, from)
		if h.Stats.Rejected.Load() != 1 {
			t.Errorf("%s with an argument short: rejected %d, want 1", msg.Address, h.Stats.Rejected.Load())
		}
		h.Stats.Rejected.Store(0)
		for _, r := range rec.replies(t) {
			answers = append(answers, r.m)
		}
	}
	if accepted != 3 || wrists != 1 {
		t.Errorf("%d accepted methods, %d wrist poses taken: want 3 and 1", accepted, wrists)
	}
	seen := conform(t, answers, Sent)
	for _, want := range []string{"{prefix}/subscribed", "{prefix}/unsubscribed", "{prefix}/refused"} {
		if !seen[want] {
			t.Errorf("no %s among the answers %v", want, answers)
		}
	}
}

// TestREADMEShowsTheContract: the README's tables of what gloved sends for
// a hand and of the requests it takes and answers are the contract's
// (go test -update rewrites them).
func TestREADMEShowsTheContract(t *testing.T) {
	var frames, requests []Method
	for _, m := range Methods() {
		if m.ForHand() && m.Access == Sent {
			frames = append(frames, m)
		} else {
			requests = append(requests, m)
		}
	}
	readmetest.Section(t, "osc-frames", Markdown(frames))
	readmetest.Section(t, "osc-requests", Markdown(requests))
}
