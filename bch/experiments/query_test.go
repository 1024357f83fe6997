package experiments

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gloved/gloved/bch"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/traversal"
)

// TestQueryPassesAllocateNothing: once the trees are placed and the
// stack and collider have grown, a timed pass over the cases allocates
// nothing, for the BCH and the OBB tree alike.
func TestQueryPassesAllocateNothing(t *testing.T) {
	_, tr := handTrees(t, 4)
	cases, _, err := CollidingCases(context.Background(), tr, 5, rand.New(rand.NewPCG(8, 8)))
	if err != nil {
		t.Fatal(err)
	}
	placed := make([]bch.Tree, len(cases))
	poses := make([]geom.Transform, len(cases))
	for i, c := range cases {
		Place(&placed[i], tr.Tall[c.B], c.P)
		poses[i] = tr.Frame.Transform(c.P)
	}
	var stack [][2]int32
	col := traversal.Collider{FirstContact: true}
	bchPass(tr.Tall, placed, cases, &stack)
	obbPass(&col, tr, cases, poses)
	if n := testing.AllocsPerRun(5, func() { bchPass(tr.Tall, placed, cases, &stack) }); n != 0 {
		t.Errorf("a BCH pass allocates %v times", n)
	}
	if n := testing.AllocsPerRun(5, func() { obbPass(&col, tr, cases, poses) }); n != 0 {
		t.Errorf("an OBB pass allocates %v times", n)
	}
}
