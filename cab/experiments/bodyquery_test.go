package experiments

import (
	"slices"
	"testing"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/traversal"
)

func chainsSetup(t testing.TB, s LinkShape) (*cab.Hierarchy, *cab.Hierarchy, *Exact, *Exact) {
	t.Helper()
	ba, _ := ChainBody("a", 8, s)
	bb, _ := ChainBody("b", 8, s)
	ha, _ := cab.Build(ba)
	hb, _ := cab.Build(bb)
	ea, err := NewExact(ba)
	if err != nil {
		t.Fatal(err)
	}
	eb, _ := NewExact(bb)
	return ha, hb, ea, eb
}

func TestChainCandidatesHoldEveryContact(t *testing.T) {
	for _, tc := range []struct {
		m Motion
		s LinkShape
	}{{Wave, LinkShape{Length: 3, Thickness: 1}}, {Wave, LinkShape{Length: 6, Thickness: 1, Dented: true}}, {Braid, LinkShape{Length: 6, Thickness: 1}}} {
		ha, hb, ea, eb := chainsSetup(t, tc.s)
		pa, pb := make([]geom.Transform, 8), make([]geom.Transform, 8)
		ba, bb := make([][2]float64, 8), make([][2]float64, 8)
		var bq traversal.BodyQuery
		bq.SkipAdjacent = true
		cross, self := 0, 0
		for frame := range 150 {
			TwoChainPoses(tc.m, tc.s, 8, float64(frame)*0.05, ba, bb, pa, pb)
			for _, strat := range cab.Strategies {
				ra, _ := cab.NewRefitter(strat, ha)
				rb, _ := cab.NewRefitter(strat, hb)
				ra.Refit(pa)
				rb.Refit(pb)
				bq.Run(ha, hb)
				for i := range 8 {
					for j := range 8 {
						if ea.LinkLink(i, pa[i], eb, j, pb[j]) {
							if strat == cab.CAB {
								cross++
							}
							if !slices.Contains(bq.Pairs, traversal.LinkPair{A: int32(i), B: int32(j)}) {
								t.Fatalf("%s %+v frame %d %s: links %d,%d touch but are no candidate", tc.m, tc.s, frame, strat, i, j)
							}
						}
					}
				}
				bq.Self(ha)
				for i := range 8 {
					for j := i + 2; j < 8; j++ {
						if ea.LinkLink(i, pa[i], ea, j, pa[j]) {
							if strat == cab.CAB {
								self++
							}
							if !slices.Contains(bq.Pairs, traversal.LinkPair{A: int32(i), B: int32(j)}) {
								t.Fatalf("%s frame %d %s: self pair %d,%d touches but is no candidate", tc.m, frame, strat, i, j)
							}
						}
					}
				}
			}
		}
		if cross < 5 {
			t.Errorf("%s %+v: only %d chain-to-chain contacts: the motion does not bring the chains together", tc.m, tc.s, cross)
		}
		t.Logf("%s %+v: %d cross contacts, %d self contacts over 150 frames", tc.m, tc.s, cross, self)
	}
}

func TestBodyQueryReuseAllocatesNothing(t *testing.T) {
	s := LinkShape{Length: 6, Thickness: 1}
	ha, hb, _, _ := chainsSetup(t, s)
	pa, pb := make([]geom.Transform, 8), make([]geom.Transform, 8)
	TwoChainPoses(Braid, s, 8, 0, make([][2]float64, 8), make([][2]float64, 8), pa, pb)
	for _, x := range []struct {
		h *cab.Hierarchy
		p []geom.Transform
	}{{ha, pa}, {hb, pb}} {
		ref, _ := cab.NewRefitter(cab.CAB, x.h)
		ref.Refit(x.p)
	}
	q := traversal.BodyQuery{SkipAdjacent: true}
	if q.Run(ha, hb)+q.Self(ha) == 0 {
		t.Fatal("the braided chains have no candidate pair")
	}
	if n := testing.AllocsPerRun(20, func() { q.Run(ha, hb); q.Self(ha) }); n != 0 {
		t.Fatalf("%v allocations per query after warm-up", n)
	}
}
