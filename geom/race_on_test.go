//go:build race

package geom

// raceEnabled: the property tests (the exact comparisons in rationals, the
// bit-for-bit ones) are slowed several times by the race detector; they
// draw fewer cases under it (draws: the geometry has no goroutines to
// race).
const raceEnabled = true
