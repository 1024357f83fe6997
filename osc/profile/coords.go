package profile

import (
	"fmt"

	"github.com/gloved/gloved/geom"
)

// Preset returns the coordinate preset coords names (geom.Conventions;
// "": gloved's own), for a profile that sends positions and rotations in
// whichever a table chooses.
func Preset(coords string) (geom.Convention, error) {
	if coords == "" {
		return geom.Gloved, nil
	}
	c, ok := geom.ConventionNamed(coords)
	if !ok {
		return c, fmt.Errorf("coords = %q: want gloved (right-handed, Y up, metres), unity, unreal or ros", coords)
	}
	return c, nil
}

// Defaults are what a profile embeds for what it does not say itself:
// no keys of its own, no default targets, and any of geom's presets
// (Preset). It still says its Name and how it is configured.
type Defaults struct{}

// Keys are none.
func (Defaults) Keys() []string { return nil }

// DefaultTargets are none: a table must name its targets.
func (Defaults) DefaultTargets() []string { return nil }

// Coords is the preset coords names (Preset).
func (Defaults) Coords(coords string) (geom.Convention, error) { return Preset(coords) }

// ByCoords returns the profile named name whose one setting is its
// coordinates (any preset; no keys of its own, no default targets):
// configure makes its Config in the coordinates a table chooses.
func ByCoords(name string, configure func(c geom.Convention) Config) Profile {
	return byCoords{name: name, configure: configure}
}

type byCoords struct {
	Defaults
	name      string
	configure func(geom.Convention) Config
}

func (p byCoords) Name() string { return p.name }

func (p byCoords) Configure(s Settings) (Config, error) { return p.configure(s.Coords), nil }
