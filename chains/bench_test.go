package chains

import (
	"math/rand/v2"
	"testing"

	"github.com/gloved/gloved/geom"
)

// BenchmarkUpdate: a finger-sized tube's spheres follow their pivots
// (section 5.1) as the tube moves, what self-contact does every frame.
func BenchmarkUpdate(b *testing.B) {
	m := tube(0.009, 0.009, 0.08, 0.002, 48)
	s := fingerSet(b, m)
	x, err := geom.FromPose([7]float64{0.4, 0.3, -0.7, 0.2, 0.3, -1.2, 0.8})
	if err != nil {
		b.Fatal(err)
	}
	moved := &rigidPoser{m, x}
	b.ReportAllocs()
	for b.Loop() {
		s.Update(moved)
	}
}

// BenchmarkOverlaps: the two overlap tests over 60 spheres.
func BenchmarkOverlaps(b *testing.B) {
	s := randomSet(rand.New(rand.NewPCG(10, 10)), 60)
	out := s.OverlapsM2(0.01, s.OverlapsM1(0.01, nil))
	b.ReportAllocs()
	for b.Loop() {
		out = s.OverlapsM2(0.01, s.OverlapsM1(0.01, out[:0]))
	}
}
