package main

import (
	"testing"
	"time"
)

// TestANegativeDurationFlagIsAUsageError: every duration flag (run
// --for, watch --for and --timeout, ports --timeout) refuses a negative
// value with one line naming the flag, at once, rather than reading it
// as "no limit" and running forever.
func TestANegativeDurationFlagIsAUsageError(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--for", "-1s"},
		{"watch", "--for", "-1s"},
		{"watch", "--timeout", "-1s"},
		{"ports", "--timeout", "-1s"},
	} {
		r := runBinary(t, 10*time.Second, args...)
		r.oneLine(t, 2, args[1]+" -1s")
	}
}
