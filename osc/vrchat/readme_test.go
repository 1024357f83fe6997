package vrchat_test

import (
	"strings"
	"testing"

	"github.com/gloved/gloved/internal/readmetest"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/vrchat"
)

// TestREADMEShowsTheProfile: the README's table of the vrchat profile is
// its Methods' under the default names (go test -update rewrites it): the
// thumb's four, the index's pinch and the fist, then what repeats.
func TestREADMEShowsTheProfile(t *testing.T) {
	var shown []osc.Method
	for _, m := range vrchat.Methods() {
		if strings.Contains(m.Path, "/thumb/") || strings.HasSuffix(m.Path, "/index/pinch") || strings.HasSuffix(m.Path, "/fist") {
			shown = append(shown, m)
		}
	}
	readmetest.Section(t, "profile-vrchat", osc.Markdown(shown)+
		"\nThe same four as the thumb's for index, middle, ring and little, in that order after the thumb's; then pinch for index, middle, ring and little; then fist. Every address starts with /avatar/parameters/, the rest is the parameter's name.\n")
}
