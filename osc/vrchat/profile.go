package vrchat

import (
	"fmt"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/profile"
)

// Name is the profile's name in [[osc.profile]].
const Name = "vrchat"

// MaxApproach is the largest approach_mps (m/s).
const MaxApproach = 10

func init() { profile.Register(registered{}) }

// registered is the profile as the registry holds it: no coordinates,
// VRChat's port on this machine by default, and the keys rate_hz,
// approach_mps and parameters (Options).
type registered struct{}

func (registered) Name() string   { return Name }
func (registered) Keys() []string { return []string{"rate_hz", "approach_mps", "parameters"} }

func (registered) DefaultTargets() []string {
	return []string{fmt.Sprintf("127.0.0.1:%d", DefaultPort)}
}

func (registered) Coords(coords string) (geom.Convention, error) {
	if coords != "" {
		return geom.Convention{}, fmt.Errorf("coords = %q: the vrchat profile sends no positions or rotations: leave coords out", coords)
	}
	return geom.Convention{}, nil
}

// Configure reads rate_hz (the most ticks a second), approach_mps (the
// closing speed that reads as velocity 1) and parameters (key to name
// template; "" turns one off), each checked for the hands.
func (registered) Configure(s profile.Settings) (profile.Config, error) {
	rate, err := s.Keys.Number("rate_hz")
	if err != nil {
		return nil, err
	}
	// A key left out is the default; one written is checked as written.
	if _, given := s.Keys["rate_hz"]; given && !(rate >= 1 && rate <= MaxRate) {
		return nil, fmt.Errorf("rate_hz = %v: want 1 to %v ticks a second (VRChat syncs avatar parameters at most about 10 times a second; the default)", rate, MaxRate)
	}
	approach, err := s.Keys.Number("approach_mps")
	if err != nil {
		return nil, err
	}
	if _, given := s.Keys["approach_mps"]; given && !(approach > 0 && approach <= MaxApproach) {
		return nil, fmt.Errorf("approach_mps = %v: want a speed above 0 and at most %d m/s (the default is %v)", approach, MaxApproach, DefaultApproach)
	}
	table, err := s.Keys.Strings("parameters")
	if err != nil {
		return nil, err
	}
	names, err := WithDefaults(table)
	if err == nil {
		err = names.Check(s.Hands)
	}
	if err != nil {
		return nil, err
	}
	return config{Options{Names: names, Rate: rate, Approach: approach}}, nil
}

// config is the profile's options, but for the band (the daemon's).
type config struct{ o Options }

// Methods are the parameters under the default names.
func (config) Methods() []osc.Method { return Methods() }

// TreeMethods are none: VRChat sends every avatar parameter to each
// OSCQuery app whose tree holds /avatar, and gloved has no use for them
// (they are VRChat's address space, which VRChat's own tree describes).
func (config) TreeMethods() []osc.Method { return nil }

func (x config) Open(r profile.Run) profile.Output {
	o := x.o
	o.Band = r.Band
	return &output{o: o, hands: r.Hands}
}

// output is the profile for one daemon run.
type output struct {
	o     Options
	hands []string
}

func (o *output) Hand(i int, model *handmodel.Hand) profile.Encoder {
	return NewHand(model, o.hands[i], o.o)
}

// Status adds nothing: an avatar has no parameter for it.
func (o *output) Status(*osc.Writer, int, profile.Status) {}
