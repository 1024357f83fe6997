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

// TestADurationFlagThatRoundsToNoLimitIsAUsageError: a positive
// duration below a millisecond (0.5ns parsed as 0, "no limit", and ran
// forever) is refused with one line naming the flag and what it takes,
// exit 2, at once; 0 still means no limit.
func TestADurationFlagThatRoundsToNoLimitIsAUsageError(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"run", "--for", "0.5ns"},
		{"watch", "--for", "0.4ns"},
		{"watch", "--timeout", "0.4ns"},
		{"watch", "--timeout", "0.0000000001s"},
		{"run", "--for", "500us"},
	} {
		r := runBinary(t, 10*time.Second, args...)
		r.oneLine(t, 2, args[1]+" "+args[2]+": want 0 (no limit) or 1ms or more")
	}
	if r := runBinary(t, 10*time.Second, "run", "--check", "--for", "0s"); r.code != 0 {
		t.Errorf("run --for 0s (no limit): exit %d: %s", r.code, r.stderr)
	}
}
