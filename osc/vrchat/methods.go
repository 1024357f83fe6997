package vrchat

import (
	"strings"

	"github.com/gloved/gloved/osc"
)

// Methods describes the parameters a hand sends under the default names,
// in the order a tick sends them ({hand} is the hand's name).
func Methods() []osc.Method {
	var ms []osc.Method
	add := func(template, finger string, arg osc.Arg, desc string) {
		path := Prefix + strings.NewReplacer("{finger}", finger).Replace(template)
		ms = append(ms, osc.Method{Path: path, Access: osc.Sent, Args: []osc.Arg{arg}, Description: desc,
			When: "at a tick (at most osc.profile.rate_hz a second) when it changed, and every second"})
	}
	unit := func(name string, lo float64) osc.Arg {
		return osc.Arg{Type: 'f', Name: name, Range: osc.Between(lo, 1)}
	}
	on := func(name string) osc.Arg { return osc.Arg{Type: 'T', Name: name} }
	for _, f := range Fingers {
		add(DefaultNames.Curl, f, unit("curl", 0), "How far the "+f+" is bent: the sum of its flexion angles over the sum of their limits, 0 straight to 1.")
		add(DefaultNames.Proximity, f, unit("proximity", 0), "How near the "+f+" is to the scene or another hand: 1 touching, to 0 at frame.proximity_m and beyond; the peak since the last tick.")
		add(DefaultNames.Velocity, f, unit("velocity", -1), "How fast the "+f+" closes on the nearest surface within the band since the last tick, over osc.profile.approach_mps (1 at that speed or faster; negative moving away).")
		add(DefaultNames.Touch, f, on("touching"), "Whether the "+f+" touches the scene or another hand (a /contact or /hand of its links); true if it did at any frame since the last tick.")
	}
	for _, f := range Fingers[1:] {
		add(DefaultNames.Pinch, f, on("pinching"), "Whether the "+f+" pinches against the thumb (/pinch); true if it did at any frame since the last tick.")
	}
	add(DefaultNames.Fist, "", on("fist"), "Whether the hand is a fist (/fist); true if it was at any frame since the last tick.")
	return ms
}
