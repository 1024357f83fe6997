package openxr

import (
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/profile"
)

// Name is the profile's name in [[osc.profile]].
const Name = "openxr"

func init() {
	profile.Register(profile.ByCoords(Name, func(c geom.Convention) profile.Config { return config{c: c} }))
}

// config is the profile in coordinates c.
type config struct{ c geom.Convention }

func (x config) Methods() []osc.Method { return Methods(x.c) }

func (x config) Open(r profile.Run) profile.Output {
	o := &output{c: x.c, prefix: r.Prefix, hands: r.Hands, active: make([]string, len(r.Hands))}
	for i, name := range r.Hands {
		o.active[i] = Address(r.Prefix, name, "active")
	}
	return o
}

// output is the profile for one daemon run: each hand's active address.
type output struct {
	c      geom.Convention
	prefix string
	hands  []string
	active []string
}

func (o *output) Hand(i int, model *handmodel.Hand) profile.Encoder {
	return NewHand(model, o.prefix, o.hands[i], o.c)
}

func (o *output) Status(w *osc.Writer, i int, s profile.Status) { active(w, o.active[i], s.Tracked) }
