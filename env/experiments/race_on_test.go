//go:build race

package experiments

// raceEnabled: the race detector slows the pipeline several times; the
// placement test, which runs it in one goroutine, skips under it.
const raceEnabled = true
