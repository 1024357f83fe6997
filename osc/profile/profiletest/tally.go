package profiletest

import (
	"fmt"
	"time"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/profile"
)

// Name is the profile's name in [[osc.profile]].
const Name = "tally"

// MaxEvery is the largest every.
const MaxEvery = 1000

func init() { profile.Register(registered{}) }

// registered is the profile as the registry holds it.
type registered struct{ profile.Defaults }

func (registered) Name() string   { return Name }
func (registered) Keys() []string { return []string{"every"} }

// Configure reads every: how many frames of a hand make one sent.
func (registered) Configure(s profile.Settings) (profile.Config, error) {
	every, err := s.Keys.Int("every")
	if err != nil {
		return nil, err
	}
	if _, set := s.Keys["every"]; set && (every < 1 || every > MaxEvery) {
		return nil, fmt.Errorf("every = %d: want 1 to %d frames (1, every frame, is the default)", every, MaxEvery)
	}
	return config{c: s.Coords, every: max(every, 1)}, nil
}

// config is the profile in coordinates c, sending every every-th frame.
type config struct {
	c     geom.Convention
	every int
}

// Methods are the tally of a frame and the status.
func (x config) Methods() []osc.Method {
	desc := "A tally of the hand's frames, one in every osc.profile.every: the frame's sequence, its contact count, and the palm's position."
	if note := osc.InCoordinates(x.c); note != "" {
		desc += " " + note
	}
	return []osc.Method{
		{Path: "{prefix}/{hand}/tally/frame", Access: osc.Sent, When: "every every-th frame of the hand",
			Args: append([]osc.Arg{{Type: 'i', Name: "sequence"}, {Type: 'i', Name: "contacts", Range: osc.AtLeast(0)}},
				osc.Vec3Args("palm", osc.LengthUnit(x.c))...),
			Description: desc},
		{Path: "{prefix}/{hand}/tally/status", Access: osc.Sent, When: "with the hand's status",
			Args: []osc.Arg{{Type: 's', Name: "state", Range: osc.OneOf("streaming", "no-glove", "reconnecting", "stalled", "replay", "ended", "reloading")},
				{Type: 'i', Name: "tracked", Range: osc.Between(0, 1)}},
			Description: "The hand's status, and whether it has live poses (1: its glove streams or its replay plays)."},
	}
}

func (x config) Open(r profile.Run) profile.Output {
	o := &output{config: x, addr: make([]string, len(r.Hands)), status: make([]string, len(r.Hands))}
	for i, name := range r.Hands {
		o.addr[i] = r.Prefix + "/" + name + "/tally/frame"
		o.status[i] = r.Prefix + "/" + name + "/tally/status"
	}
	return o
}

// output is the profile for one daemon run: each hand's addresses.
type output struct {
	config
	addr, status []string
}

func (o *output) Hand(i int, _ *handmodel.Hand) profile.Encoder {
	return &hand{addr: o.addr[i], c: o.c, every: o.every}
}

// Status sends the state whether or not a frame has gone: the tally's
// frames carry none.
func (o *output) Status(w *osc.Writer, i int, s profile.Status) {
	tracked := int32(0)
	if s.Tracked {
		tracked = 1
	}
	w.Message(o.status[i])
	w.String(s.State)
	w.Int(tracked)
	w.End()
}

// hand tallies one hand's frames.
type hand struct {
	addr   string
	c      geom.Convention
	every  int
	frames int // seen
}

func (h *hand) Frame(w *osc.Writer, f *osc.Frame, at time.Time) {
	w.Begin(osc.Timetag(at))
	h.frames++
	if (h.frames-1)%h.every != 0 || !f.Finite() || len(f.Links) == 0 {
		return
	}
	palm := h.c.Point(f.Links[handmodel.Palm].P)
	w.Message(h.addr)
	w.Int(f.Seq)
	w.Int(int32(len(f.Contacts)))
	for _, x := range palm {
		w.Float(x)
	}
	w.End()
}
