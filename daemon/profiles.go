package daemon

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gloved/gloved/configs"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/profile"
	_ "github.com/gloved/gloved/osc/profile/all" // the shipped profiles register themselves
)

// ProfileConfig is one [[osc.profile]]: the frames of every hand in
// another dialect, or in gloved's own with other coordinates, sent to
// the profile's own targets. The profiles are the registry's (package
// osc/profile): gloved, openxr, vrchat and vmc as shipped. Several may be
// given, the same name more than once.
type ProfileConfig struct {
	Name string `toml:"name"`
	// Targets are "host:port" or "oscquery:GLOB" (OSCQuery services an
	// mDNS browser finds); a profile may have default ones (vrchat's and
	// vmc's apps' ports on this machine).
	Targets []string `toml:"targets"`
	// Coords is the coordinate preset of a profile that sends positions
	// and rotations: gloved (default), unity, unreal or ros (geom's
	// presets), as the profile takes them (vmc is always unity; vrchat
	// has none).
	Coords string `toml:"coords"`
	// Keys are the profile's own keys (vrchat's rate_hz, approach_mps and
	// parameters), as TOML decoded them.
	Keys profile.Keys `toml:"-"`

	// What check found: the coordinates, and the profile configured.
	conv       geom.Convention
	configured profile.Config
	// bad is a common key of the wrong type, found by UnmarshalTOML.
	bad error
}

// UnmarshalTOML reads a table: name, targets and coords, and the rest
// as the profile's own keys, which check gives the profile to read
// (configs.Decode reads the rest of a config strictly; a profile's keys
// are its profile's to check).
func (p *ProfileConfig) UnmarshalTOML(data any) error {
	table, ok := data.(map[string]any)
	if !ok {
		return fmt.Errorf("osc.profile: want a table, [[osc.profile]]")
	}
	keys := profile.Keys(table)
	var errs [3]error
	p.Name, errs[0] = keys.String("name")
	p.Targets, errs[1] = keys.List("targets")
	p.Coords, errs[2] = keys.String("coords")
	p.bad = cmp.Or(errs[:]...)
	p.Keys = maps.Clone(keys)
	for _, common := range []string{"name", "targets", "coords"} {
		delete(p.Keys, common)
	}
	if len(p.Keys) == 0 {
		p.Keys = nil
	}
	return nil
}

func (p *ProfileConfig) defaults() {
	if pr, ok := profile.Lookup(p.Name); ok && len(p.Targets) == 0 {
		p.Targets = slices.Clone(pr.DefaultTargets())
	}
}

// check checks profile i, naming the key at fault, and configures it
// for the hands named hands.
func (p *ProfileConfig) check(i int, hands []string) error {
	key := fmt.Sprintf("osc.profile[%d]", i)
	if p.bad != nil {
		return fmt.Errorf("%s.%w", key, p.bad)
	}
	pr, ok := profile.Lookup(p.Name)
	if !ok {
		return fmt.Errorf("%s.name = %q: want %s", key, p.Name, configs.List(profile.Names(), "or"))
	}
	if len(p.Targets) == 0 {
		return fmt.Errorf("%s.targets: the %s profile needs somewhere to send: host:port or oscquery:GLOB", key, p.Name)
	}
	for k, t := range p.Targets {
		if err := osc.CheckTarget(t); err != nil {
			return fmt.Errorf("%s.targets[%d] = %q: %v", key, k, t, err)
		}
	}
	conv, err := pr.Coords(p.Coords)
	if err == nil {
		err = profile.Own(pr, p.Keys)
	}
	var c profile.Config
	if err == nil {
		c, err = pr.Configure(profile.Settings{Coords: conv, Keys: p.Keys, Hands: hands})
	}
	if err != nil {
		return fmt.Errorf("%s.%w", key, err)
	}
	p.conv, p.configured = conv, c
	return nil
}

// Convention returns the coordinates the profile sends in, once checked
// (the zero Convention for one that sends no positions or rotations).
func (p *ProfileConfig) Convention() geom.Convention { return p.conv }

// String describes the profile for logs and --check: its name, its
// coordinates where it has any, and its targets.
func (p *ProfileConfig) String() string {
	coords := ""
	if p.conv.Name() != "" {
		coords = " (" + p.conv.Name() + ")"
	}
	return fmt.Sprintf("%s%s to %s", p.Name, coords, strings.Join(p.Targets, " "))
}
