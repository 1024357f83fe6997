package env

import (
	"math/rand/v2"
	"testing"
)

// leaves counts the triangles under ref by visiting them.
func leaves(t *Tree, ref int32) int {
	if ref < 0 {
		return 1
	}
	c := t.Nodes[ref].Child
	return leaves(t, c[0]) + leaves(t, c[1])
}

// TestCountEqualsLeaves: Count, which follows one path down, equals the
// number of leaves under every node, for trees built in parallel or not.
func TestCountEqualsLeaves(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 7, 100, 9000} {
		for _, workers := range []int{1, 2} {
			tree, err := Build(Soup("soup", r, n, 1, 0.1), BuildOptions{Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			if got := tree.Count(tree.Root); got != n {
				t.Fatalf("%d triangles: root count %d", n, got)
			}
			for i := range tree.Nodes {
				if got, want := tree.Count(int32(i)), leaves(tree, int32(i)); got != want {
					t.Fatalf("%d triangles, %d workers: node %d count %d, want %d", n, workers, i, got, want)
				}
			}
		}
	}
}
