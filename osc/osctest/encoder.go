package osctest

import (
	"math"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/profile"
	"github.com/gloved/gloved/session"
)

// Held returns frame n of spec's session (from 1), its buffers its own
// (a copy of every slice): what a test encodes again and again. Its
// pipeline is closed; its hand model stays usable.
func Held(tb testing.TB, spec session.Spec, n int) Frame {
	tb.Helper()
	var held Frame
	Run(tb, spec, n, func(f Frame) {
		c := *f.Frame
		c.Joints, c.Links, c.Contacts, c.Near = slices.Clone(c.Joints), slices.Clone(c.Links), slices.Clone(c.Contacts), slices.Clone(c.Near)
		c.Touches, c.Self, c.Pinches, c.Fists = slices.Clone(c.Touches), slices.Clone(c.Self), slices.Clone(c.Pinches), slices.Clone(c.Fists)
		c.Hands, c.HandNear, c.LOD = slices.Clone(c.Hands), slices.Clone(c.HandNear), slices.Clone(c.LOD)
		held = Frame{Frame: &c, At: f.At, Pipeline: f.Pipeline}
	})
	if held.Frame == nil {
		tb.Fatalf("the session ended before frame %d", n)
	}
	return held
}

// Repeat returns what a profile's allocation test and benchmark run: an
// encoder, built by newEncoder from the shipped recording's grasp
// half-way (its frame 100), encoding that frame again, each call a
// sample on and a second later than the last (so that a profile sending
// at ticks, vrchat, ticks at each and sends every parameter), its writer
// grown by a first call.
func Repeat(tb testing.TB, newEncoder func(f Frame) profile.Encoder) func() {
	tb.Helper()
	f := Held(tb, Recording(), 100)
	e := newEncoder(f)
	var w osc.Writer
	step := 0
	encode := func() {
		step++
		f.Sample = uint64(step)
		e.Frame(&w, f.Frame, f.At.Add(time.Duration(step)*time.Second))
	}
	encode()
	return encode
}

// AllocatesNothing fails t unless 200 calls of encode allocate nothing in
// all (Mallocs: every path a call may take is counted, not averaged).
func AllocatesNothing(t *testing.T, encode func()) {
	t.Helper()
	if n := Mallocs(200, encode); n != 0 {
		t.Fatalf("%d allocations in 200 frames", n)
	}
}

// Benchmark runs encode as b's loop, reporting its allocations.
func Benchmark(b *testing.B, encode func()) {
	b.ReportAllocs()
	for b.Loop() {
		encode()
	}
}

// Mallocs returns how many allocations runs calls of f make in all, after
// one to warm up, on one thread as testing.AllocsPerRun measures (which
// averages and rounds down, so that a path taken one call in ten could
// allocate unseen).
//
// The count is the process's, so a finalizer or cleanup the runtime runs
// for an earlier test's garbage in the middle of the calls is counted too
// (CI saw one such allocation in 200 frames). Mallocs therefore measures
// up to three times and returns the least count: an allocation f makes
// at least once in runs calls is in every measurement.
func Mallocs(runs int, f func()) uint64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	f()
	least := uint64(math.MaxUint64)
	for range 3 {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range runs {
			f()
		}
		runtime.ReadMemStats(&after)
		least = min(least, after.Mallocs-before.Mallocs)
		if least == 0 {
			break
		}
	}
	return least
}
