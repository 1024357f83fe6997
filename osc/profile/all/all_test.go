package all_test

import (
	"slices"
	"testing"

	"github.com/gloved/gloved/osc/osctest"
	"github.com/gloved/gloved/osc/profile"
	_ "github.com/gloved/gloved/osc/profile/all"
)

// TestTheShippedProfilesAreRegistered: importing all registers
// gloved, openxr, vmc and vrchat, and nothing else.
func TestTheShippedProfilesAreRegistered(t *testing.T) {
	if got, want := profile.Names(), []string{"gloved", "openxr", "vmc", "vrchat"}; !slices.Equal(got, want) {
		t.Errorf("registered %v, want %v", got, want)
	}
}

// TestEveryShippedProfileConforms: each keeps to the registry's rules
// and to its own contract over the shipped recording (osctest.Conform).
func TestEveryShippedProfileConforms(t *testing.T) {
	for _, name := range profile.Names() {
		t.Run(name, func(t *testing.T) { osctest.Conform(t, name, nil) })
	}
}
