package openxr_test

import (
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/internal/readmetest"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/openxr"
)

// TestREADMEShowsTheProfile: the README's table of the openxr profile is
// its Methods' in gloved's coordinates (go test -update rewrites it):
// active, handedness and the palm, then the other joints' names in
// order, then what the other presets make of the joints' axes and unit
// (their Methods say the same).
func TestREADMEShowsTheProfile(t *testing.T) {
	ms := openxr.Methods(geom.Gloved)
	var names []string
	for j := handmodel.XRWrist; j < handmodel.NumXRJoints; j++ {
		names = append(names, "`"+j.String()+"`")
	}
	var presets []string
	for _, c := range geom.Conventions[1:] {
		unit := strings.TrimPrefix(osc.LengthUnit(c), "distance.")
		presets = append(presets, "`"+c.Name()+"`: "+c.Axis(mgl64.Vec3{0, 0, -1})+" along the bone, "+c.Axis(mgl64.Vec3{0, 1, 0})+" out of the back, "+unit)
	}
	readmetest.Section(t, "profile-openxr", osc.Markdown(ms[:3])+
		"\nThen one message like the palm's for each of the other joints, in this order: "+strings.Join(names, ", ")+".\n"+
		"\nIn other coordinates (`coords`) positions and radii are in the preset's unit and a joint's axes are named as the preset names them, as the OSCQuery tree says: "+strings.Join(presets, "; ")+".\n")
}
