//go:build race

package geom

// raceEnabled: the exact comparisons run in rationals, which the race
// detector slows several times; they draw fewer cases under it (the
// geometry has no goroutines to race).
const raceEnabled = true
