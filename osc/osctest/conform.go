package osctest

import (
	"testing"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/profile"
)

// Conform runs the profile registered as name, its table's own keys keys
// (nil: its defaults), for a right hand under the prefix /gloved, and
// fails t unless the profile keeps to what the registry asks: its
// default targets are targets; its table takes coords left out and keeps
// name, targets and coords for the daemon; it takes its defaults; its
// Methods are sent methods, each address once; every message of every
// frame of the shipped recording, and of a status in each state, framed
// or not, is one of its Methods with its arguments' types and ranges
// (osc.Method.CheckArgs); and its frames send something.
func Conform(t *testing.T, name string, keys profile.Keys) {
	t.Helper()
	p, ok := profile.Lookup(name)
	if !ok {
		t.Fatalf("no profile %q among %v", name, profile.Names())
	}
	for _, target := range p.DefaultTargets() {
		if err := osc.CheckTarget(target); err != nil {
			t.Errorf("%s: the default target %q: %v", name, target, err)
		}
	}
	for _, k := range p.Keys() {
		if k == "name" || k == "targets" || k == "coords" {
			t.Errorf("%s: its own key %q is the daemon's", name, k)
		}
	}
	conv, err := p.Coords("")
	if err != nil {
		t.Fatalf("%s: coords left out: %v", name, err)
	}
	if err := profile.Own(p, keys); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	cfg, err := p.Configure(profile.Settings{Coords: conv, Keys: keys, Hands: []string{"right"}})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	contract := methods(t, name, cfg.Methods())
	out := cfg.Open(profile.Run{Start: Epoch, Prefix: "/gloved", Hands: []string{"right"}, Band: Proximity})
	var enc profile.Encoder
	var w osc.Writer
	shape := osc.Shape{Joints: int(handmodel.NumJoints)}
	sent := 0
	Run(t, Recording(), 0, func(f Frame) {
		if enc == nil {
			enc, shape.Links = out.Hand(0, f.Pipeline.Hand()), f.Pipeline.Hand().NumLinks()
		}
		enc.Frame(&w, f.Frame, f.At)
		sent += conforms(t, name, contract, shape, w.Packets())
	})
	if sent == 0 {
		t.Errorf("%s: the recording's frames sent nothing", name)
	}
	for _, s := range []profile.Status{{State: "streaming", Tracked: true}, {State: "no-glove"}, {State: "replay", Tracked: true, Framed: true}, {State: "ended", Framed: true}} {
		s.Now = Epoch
		w.Begin(osc.Timetag(s.Now))
		out.Status(&w, 0, s)
		conforms(t, name, contract, shape, w.Packets())
	}
}

// methods returns ms by their address for the right hand under /gloved,
// failing t on one not sent or given twice.
func methods(t *testing.T, name string, ms []osc.Method) map[string]*osc.Method {
	t.Helper()
	out := map[string]*osc.Method{}
	for i := range ms {
		m := &ms[i]
		addr := m.Address("/gloved", "right")
		if _, twice := out[addr]; twice || m.Access&osc.Sent == 0 {
			t.Errorf("%s: the method %s: given twice, or not sent (access %d)", name, m.Path, m.Access)
		}
		out[addr] = m
	}
	return out
}

// conforms fails t unless every message of packets is one of contract's,
// its arguments fit for shape; it returns how many there were.
func conforms(t *testing.T, name string, contract map[string]*osc.Method, shape osc.Shape, packets [][]byte) int {
	t.Helper()
	n := 0
	for _, pk := range packets {
		p, err := goosc.ParsePacket(string(pk))
		if err != nil {
			t.Fatalf("%s: a packet that does not decode: %v", name, err)
		}
		msgs := []*goosc.Message{}
		switch p := p.(type) {
		case *goosc.Bundle:
			msgs = p.Messages
		case *goosc.Message:
			msgs = append(msgs, p)
		}
		for _, m := range msgs {
			n++
			c, ok := contract[m.Address]
			if !ok {
				t.Fatalf("%s: %s sent, not in the profile's Methods", name, m.Address)
			}
			if err := c.CheckArgs(m.Arguments, shape); err != nil {
				t.Fatalf("%s: %s %v: %v", name, m.Address, m.Arguments, err)
			}
		}
	}
	return n
}
