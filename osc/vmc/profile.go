package vmc

import (
	"fmt"
	"sync"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/profile"
)

// Name is the profile's name in [[osc.profile]].
const Name = "vmc"

func init() { profile.Register(registered{}) }

// registered is the profile as the registry holds it: Unity's
// coordinates only, a marionette's port on this machine by default.
type registered struct{}

func (registered) Name() string   { return Name }
func (registered) Keys() []string { return nil }

func (registered) DefaultTargets() []string {
	return []string{fmt.Sprintf("127.0.0.1:%d", DefaultPort)}
}

func (registered) Coords(coords string) (geom.Convention, error) {
	if coords != "" && coords != geom.Unity.Name() {
		return geom.Unity, fmt.Errorf("coords = %q: the vmc profile is in Unity's coordinates, as VMC is: leave coords out", coords)
	}
	return geom.Unity, nil
}

func (registered) Configure(profile.Settings) (profile.Config, error) { return config{}, nil }

// config is the profile, which has no settings.
type config struct{}

func (config) Methods() []osc.Method { return Methods() }

func (config) Open(r profile.Run) profile.Output {
	p := NewPerformer(r.Start, len(r.Hands))
	// After a reload the time goes on from the reload's: never back.
	p.t = max(0, r.Opened.Sub(r.Start).Seconds())
	return &output{p: p}
}

// output is the performer the hands of one output share. Its lock is
// held across the making and the sending of each of its bundles
// (profile.Output, Performer).
type output struct {
	sync.Mutex
	p *Performer
}

func (o *output) Hand(i int, model *handmodel.Hand) profile.Encoder { return NewHand(model, o.p, i) }

func (o *output) Status(w *osc.Writer, i int, s profile.Status) { o.p.Status(w, i, s.Tracked, s.Now) }
