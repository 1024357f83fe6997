package vmc_test

import (
	"testing"

	"github.com/gloved/gloved/internal/readmetest"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/vmc"
)

// TestREADMEShowsTheProfile: the README's table of the vmc profile is its
// Methods' (go test -update rewrites it).
func TestREADMEShowsTheProfile(t *testing.T) {
	readmetest.Section(t, "profile-vmc", osc.Markdown(vmc.Methods()))
}
