package openxr_test

import (
	"strings"
	"testing"

	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/internal/readmetest"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/openxr"
)

// TestREADMEShowsTheProfile: the README's table of the openxr profile is
// its Methods' (go test -update rewrites it): active, handedness and the
// palm, then the other joints' names in order.
func TestREADMEShowsTheProfile(t *testing.T) {
	ms := openxr.Methods()
	var names []string
	for j := handmodel.XRWrist; j < handmodel.NumXRJoints; j++ {
		names = append(names, "`"+j.String()+"`")
	}
	readmetest.Section(t, "profile-openxr", osc.Markdown(ms[:3])+
		"\nThen one message like the palm's for each of the other joints, in this order: "+strings.Join(names, ", ")+".\n")
}
