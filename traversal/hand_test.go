package traversal_test

import (
	"testing"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/handmodel"
)

// handSetup builds the default hand and its CAB hierarchy.
func handSetup(t testing.TB) (*handmodel.Hand, *cab.Hierarchy) {
	t.Helper()
	hand, err := handmodel.New(handmodel.DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	body, err := cab.HandBody(hand)
	if err != nil {
		t.Fatal(err)
	}
	h, err := cab.Build(body)
	if err != nil {
		t.Fatal(err)
	}
	return hand, h
}
