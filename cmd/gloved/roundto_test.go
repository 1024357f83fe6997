package main

import (
	"encoding/json"
	"math"
	"testing"
)

// TestRoundedNumbersAreNeverNegativeZero: what contacts --json and dump
// print is rounded by roundTo; a value a hair below zero (or -0 itself)
// prints 0, not -0, so that answers equal to the printed digits print
// alike (contacts --no-accel differed from the default by -0 alone).
func TestRoundedNumbersAreNeverNegativeZero(t *testing.T) {
	for _, x := range []float64{-1e-12, -0.4e-9, math.Copysign(0, -1), 1e-12} {
		for _, k := range []float64{1e6, 1e9} {
			b, _ := json.Marshal(roundTo(x, k))
			if string(b) != "0" {
				t.Errorf("roundTo(%g, %g) prints %s, want 0", x, k, b)
			}
		}
	}
	if got := roundTo(-0.6e-9, 1e9); got != -1e-9 {
		t.Errorf("roundTo(-0.6e-9, 1e9) = %g, want -1e-9", got)
	}
}
