//go:build race

package daemon

// raceEnabled: the race detector slows every goroutine several times, so
// tests that assert timing (the fault campaign) skip under it.
const raceEnabled = true
