package cabtest

import (
	"testing"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/handmodel"
)

// Hand builds the default hand and its CAB hierarchy, failing tb on an
// error.
func Hand(tb testing.TB) (*handmodel.Hand, *cab.Hierarchy) {
	tb.Helper()
	hand, err := handmodel.New(handmodel.DefaultParams)
	if err != nil {
		tb.Fatal(err)
	}
	body, err := cab.HandBody(hand)
	if err != nil {
		tb.Fatal(err)
	}
	h, err := cab.Build(body)
	if err != nil {
		tb.Fatal(err)
	}
	return hand, h
}
