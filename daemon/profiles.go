package daemon

import (
	"fmt"
	"strings"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/vmc"
	"github.com/gloved/gloved/osc/vrchat"
)

// The output profiles an [[osc.profile]] can name.
const (
	ProfileGloved = "gloved" // gloved's own contract (osc.targets is one, always)
	ProfileOpenXR = "openxr" // the 26 OpenXR hand joints (package osc/openxr)
	ProfileVRChat = "vrchat" // VRChat avatar parameters (package osc/vrchat)
	ProfileVMC    = "vmc"    // VMC protocol finger bones (package osc/vmc)
)

// ProfileConfig is one [[osc.profile]]: the frames of every hand in
// another dialect, or in gloved's own with other coordinates, sent to
// the profile's own targets. Several may be given, the same name more
// than once.
type ProfileConfig struct {
	Name string `toml:"name"`
	// Targets are "host:port" or "oscquery:GLOB" (OSCQuery services an
	// mDNS browser finds); vrchat and vmc default to their apps' ports on
	// this machine.
	Targets []string `toml:"targets"`
	// Coords is the coordinate preset of a profile that sends positions
	// and rotations: gloved (default), unity, unreal or ros (geom's
	// presets). vmc is always unity; vrchat has none.
	Coords string `toml:"coords"`
	// vrchat: the most ticks a second, the closing speed that reads as
	// velocity 1, and the parameters' names (key to name template; ""
	// turns one off).
	RateHz      float64           `toml:"rate_hz"`
	ApproachMPS float64           `toml:"approach_mps"`
	Parameters  map[string]string `toml:"parameters"`
}

// defaultTargets are where a profile sends when its table names no
// targets: VRChat's and a VMC marionette's ports on this machine.
var defaultTargets = map[string]string{
	ProfileVRChat: fmt.Sprintf("127.0.0.1:%d", vrchat.DefaultPort),
	ProfileVMC:    fmt.Sprintf("127.0.0.1:%d", vmc.DefaultPort),
}

// Limits of the vrchat profile's settings.
const maxApproachMPS = 10

func (p *ProfileConfig) defaults() {
	if len(p.Targets) == 0 && defaultTargets[p.Name] != "" {
		p.Targets = []string{defaultTargets[p.Name]}
	}
}

// check checks profile i, naming the key at fault; hands are the hands'
// names.
func (p *ProfileConfig) check(i int, hands []string) error {
	key := fmt.Sprintf("osc.profile[%d]", i)
	switch p.Name {
	case ProfileGloved, ProfileOpenXR, ProfileVRChat, ProfileVMC:
	default:
		return fmt.Errorf("%s.name = %q: want gloved, openxr, vrchat or vmc", key, p.Name)
	}
	if len(p.Targets) == 0 {
		return fmt.Errorf("%s.targets: the %s profile needs somewhere to send: host:port or oscquery:GLOB", key, p.Name)
	}
	for k, t := range p.Targets {
		if err := osc.CheckTarget(t); err != nil {
			return fmt.Errorf("%s.targets[%d] = %q: %v", key, k, t, err)
		}
	}
	if err := p.checkCoords(key); err != nil {
		return err
	}
	if p.Name != ProfileVRChat {
		for name, set := range map[string]bool{"rate_hz": p.RateHz != 0, "approach_mps": p.ApproachMPS != 0, "parameters": p.Parameters != nil} {
			if set {
				return fmt.Errorf("%s.%s: only the vrchat profile has it; the %s profile sends every frame", key, name, p.Name)
			}
		}
		return nil
	}
	if p.RateHz != 0 && !(p.RateHz >= 1 && p.RateHz <= vrchat.MaxRate) {
		return fmt.Errorf("%s.rate_hz = %v: want 1 to %v ticks a second (VRChat syncs avatar parameters at most about 10 times a second; the default)", key, p.RateHz, vrchat.MaxRate)
	}
	if p.ApproachMPS != 0 && !(p.ApproachMPS > 0 && p.ApproachMPS <= maxApproachMPS) {
		return fmt.Errorf("%s.approach_mps = %v: want a speed above 0 and at most %d m/s (the default is %v)", key, p.ApproachMPS, maxApproachMPS, vrchat.DefaultApproach)
	}
	names, err := vrchat.WithDefaults(p.Parameters)
	if err == nil {
		err = names.Check(hands)
	}
	if err != nil {
		return fmt.Errorf("%s.%w", key, err)
	}
	return nil
}

// checkCoords checks the coords key of the profile at key.
func (p *ProfileConfig) checkCoords(key string) error {
	switch {
	case p.Name == ProfileVRChat && p.Coords != "":
		return fmt.Errorf("%s.coords = %q: the vrchat profile sends no positions or rotations: leave coords out", key, p.Coords)
	case p.Name == ProfileVMC && p.Coords != "" && p.Coords != geom.Unity.Name():
		return fmt.Errorf("%s.coords = %q: the vmc profile is in Unity's coordinates, as VMC is: leave coords out", key, p.Coords)
	case p.Coords != "":
		if _, ok := geom.ConventionNamed(p.Coords); !ok {
			return fmt.Errorf("%s.coords = %q: want gloved (right-handed, Y up, metres), unity, unreal or ros", key, p.Coords)
		}
	}
	return nil
}

// Convention returns the profile's coordinates.
func (p *ProfileConfig) Convention() geom.Convention {
	if p.Name == ProfileVMC {
		return geom.Unity
	}
	c, ok := geom.ConventionNamed(p.Coords)
	if !ok {
		return geom.Gloved
	}
	return c
}

// String describes the profile for logs and --check: its name, its
// coordinates where it has any, and its targets.
func (p *ProfileConfig) String() string {
	coords := ""
	if p.Name != ProfileVRChat {
		coords = " (" + p.Convention().Name() + ")"
	}
	return fmt.Sprintf("%s%s to %s", p.Name, coords, strings.Join(p.Targets, " "))
}

// VRChat returns a vrchat profile's options, for a near band of band
// metres.
func (p *ProfileConfig) VRChat(band float64) vrchat.Options {
	names, _ := vrchat.WithDefaults(p.Parameters) // checked
	return vrchat.Options{Names: names, Rate: p.RateHz, Band: band, Approach: p.ApproachMPS}
}
