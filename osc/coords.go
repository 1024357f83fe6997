package osc

import (
	"fmt"

	"github.com/gloved/gloved/geom"
)

// lengthUnits are the OSCQuery units (units.md) of the lengths a
// convention's scale gives, and their names in a description.
var lengthUnits = map[float64]struct{ unit, words string }{
	1:    {unitMetre, "metres"},
	100:  {"distance.cm", "centimetres"},
	1000: {"distance.mm", "millimetres"},
}

// LengthUnit returns the OSCQuery unit of lengths in convention c:
// distance.m in gloved's and most apps' metres, distance.cm in Unreal's
// centimetres, distance.mm; "" for a scale the proposal has no unit for.
func LengthUnit(c geom.Convention) string { return lengthUnits[c.Scale()].unit }

// Coordinates names convention c, its axes and its unit, for a
// description: "unreal's coordinates (left-handed, +Z up, +X forward, +Y
// right), lengths in centimetres".
func Coordinates(c geom.Convention) string {
	words := lengthUnits[c.Scale()].words
	if words == "" {
		words = fmt.Sprintf("units of %g m", 1/c.Scale())
	}
	return fmt.Sprintf("%s's coordinates (%s), lengths in %s", c.Name(), c.Axes(), words)
}

// InCoordinates is the sentence a method's description ends with when
// the positions, directions or lengths it sends are in convention c
// rather than gloved's own: "In unreal's coordinates (left-handed, +Z
// up, +X forward, +Y right), lengths in centimetres." It is "" for
// gloved's own, which the contract's tables and tree state once.
func InCoordinates(c geom.Convention) string {
	if c.Identity() {
		return ""
	}
	return "In " + Coordinates(c) + "."
}

// describedIn returns description d for a method whose values are in
// convention c: d, then InCoordinates(c) if c is not gloved's own.
func describedIn(d string, c geom.Convention) string {
	if note := InCoordinates(c); note != "" {
		return d + " " + note
	}
	return d
}
