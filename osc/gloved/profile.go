package gloved

import (
	"time"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/profile"
)

// Name is the profile's name in [[osc.profile]].
const Name = "gloved"

func init() {
	profile.Register(profile.ByCoords(Name, func(c geom.Convention) profile.Config { return config{c: c} }))
}

// config is the profile in coordinates c.
type config struct{ c geom.Convention }

// Methods are what a hand's frames send of gloved's contract in c (the
// requests and answers are osc.targets' socket's).
func (g config) Methods() []osc.Method {
	var out []osc.Method
	for _, m := range osc.MethodsIn(g.c) {
		if m.ForHand() && m.Access == osc.Sent {
			out = append(out, m)
		}
	}
	return out
}

func (g config) Open(r profile.Run) profile.Output {
	o := &output{c: g.c, addr: make([]*osc.Addresses, len(r.Hands))}
	for i, name := range r.Hands {
		o.addr[i] = osc.HandAddresses(r.Prefix, name)
	}
	return o
}

// output is the profile for one daemon run: each hand's addresses.
type output struct {
	c    geom.Convention
	addr []*osc.Addresses
}

func (o *output) Hand(i int, _ *handmodel.Hand) profile.Encoder {
	return NewHand(o.addr[i], o.c)
}

// Status writes <prefix>/<hand>/status, unless the hand's frame has just
// carried it.
func (o *output) Status(w *osc.Writer, i int, s profile.Status) {
	if s.Framed {
		return
	}
	w.Message(o.addr[i].Status)
	w.String(s.State)
	w.End()
}

// Hand encodes one hand's frames in gloved's contract in a convention.
// It is built once per hand and used by the hand's frame loop alone.
type Hand struct {
	addr *osc.Addresses
	c    geom.Convention
	conv osc.Frame // the frame carried into c
}

// NewHand returns the encoder of a hand's frames to addr, in c.
func NewHand(addr *osc.Addresses, c geom.Convention) *Hand { return &Hand{addr: addr, c: c} }

// Frame encodes f, stamped at, as gloved sends it (osc.AppendFrame), in
// the hand's coordinates. Once its buffers have grown it allocates
// nothing.
func (g *Hand) Frame(w *osc.Writer, f *osc.Frame, at time.Time) {
	w.Begin(osc.Timetag(at))
	if g.c.Identity() {
		osc.AppendFrame(w, g.addr, f)
		return
	}
	osc.ConvertFrame(&g.conv, f, g.c)
	osc.AppendFrame(w, g.addr, &g.conv)
}
