package traversal_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/cab/cabtest"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/traversal"
)

// object is a scene object for the traversal: its own tree, whether it
// wants fronts, and the links it declares clear.
type object struct {
	tree  *env.Tree
	front bool
	clear map[int]bool
}

func (o *object) Tree() *env.Tree                    { return o.tree }
func (o *object) Front() bool                        { return o.front }
func (o *object) Clear(l int, _ geom.Transform) bool { return o.clear[l] }

// objectsOf builds each object's own tree, as the contact methods do.
func objectsOf(t testing.TB, scene *env.Mesh) []*object {
	t.Helper()
	var out []*object
	for o := range scene.Objects {
		sub, _ := scene.Subset(func(i int) bool { return int(scene.Object[i]) == o })
		tree, err := env.Build(sub, env.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, &object{tree: tree, front: true, clear: map[int]bool{}})
	}
	return out
}

// under appends the triangles under tree reference r, left to right.
func under(t *env.Tree, r int32, out []int32) []int32 {
	if k, ok := env.Leaf(r); ok {
		return append(out, k)
	}
	out = under(t, t.Nodes[r].Child[0], out)
	return under(t, t.Nodes[r].Child[1], out)
}

// TestCandidatesAreBruteForce: on the grasp scene at two sizes, over
// random hand poses near the ball, with a band and without: the
// candidates are exactly the (link, object) pairs whose leaf box, grown
// by the band, meets the object's root box, ordered by link then object;
// a front holds every triangle that meets the link's box (exactly, in
// rationals), each once, left to right, as triangles its box may meet
// (the float filter) or under nodes its box meets that are no larger than
// it; a cleared pair has no front; an object that wants no front gets
// none.
func TestCandidatesAreBruteForce(t *testing.T) {
	hand, h := cabtest.Hand(t)
	refit, err := cab.NewRefitter(cab.CAB, h)
	if err != nil {
		t.Fatal(err)
	}
	for _, level := range []int{3, 5} {
		scene := env.GraspScene(level)
		objs := objectsOf(t, scene)
		objs[0].front = false // the table: pairs only
		var list []traversal.Object
		for _, o := range objs {
			list = append(list, o)
		}
		r := rand.New(rand.NewPCG(uint64(level), 7))
		poses := make([]geom.Transform, hand.NumLinks())
		checked := 0
		for trial := range 60 {
			graspPose(r, hand, poses)
			refit.Refit(poses)
			band := []float64{0, 0.01}[trial%2]
			clear(objs[1].clear)
			objs[1].clear[trial%hand.NumLinks()] = trial%3 == 0
			c := traversal.Candidates{Band: band}
			c.Run(h, list, poses)
			var want [][2]int32
			for l := range hand.NumLinks() {
				for o, obj := range objs {
					root := obj.tree.Bounds()
					leaf := grown(h.Leaves[l], band)
					if !geom.BoxesDisjoint(&leaf, &root) {
						want = append(want, [2]int32{int32(l), int32(o)})
					}
				}
			}
			var got [][2]int32
			for _, cand := range c.List {
				got = append(got, [2]int32{cand.Link, cand.Object})
			}
			if !slices.Equal(got, want) {
				t.Fatalf("level %d trial %d: candidates %v, brute force %v", level, trial, got, want)
			}
			for _, cand := range c.List {
				obj := objs[cand.Object]
				if cand.Clear != obj.clear[int(cand.Link)] {
					t.Fatalf("level %d trial %d: %+v: the object says clear %v", level, trial, cand, obj.clear[int(cand.Link)])
				}
				if cand.Clear || !obj.front {
					if len(cand.Front) != 0 {
						t.Fatalf("level %d trial %d: %+v has a front", level, trial, cand)
					}
					continue
				}
				checkFront(t, obj.tree, h.Leaves[cand.Link], cand.Front)
				checked++
			}
		}
		if checked < 100 {
			t.Fatalf("level %d: only %d fronts checked", level, checked)
		}
	}
}

// checkFront checks a link's front against box, the link's leaf box.
func checkFront(t *testing.T, tree *env.Tree, box geom.OBB, front []int32) {
	t.Helper()
	var tris []int32
	for _, r := range front {
		tris = under(tree, r, tris)
	}
	if !slices.IsSorted(leftToRight(tree, tris)) {
		t.Fatalf("front %v is not in the tree's left-to-right order", front)
	}
	for _, r := range front {
		if k, ok := env.Leaf(r); ok {
			if !geom.TriOBBMayMeet(tree.Mesh.Triangle(int(k)), &box) {
				t.Fatalf("triangle %d is in the front but apart from the link's box", k)
			}
		} else if nb := tree.Box(r); geom.BoxesDisjoint(&nb, &box) || nb.Size() > box.Size() {
			t.Fatalf("node %d (size %v) is in the front, apart from the link's box or larger than it (%v)", r, nb.Size(), box.Size())
		}
	}
	seen := map[int32]bool{}
	for _, k := range tris {
		if seen[k] {
			t.Fatalf("triangle %d under the front twice", k)
		}
		seen[k] = true
	}
	for k := range tree.Mesh.Tris {
		if geom.TriOBB(tree.Mesh.Triangle(k), box) && !seen[int32(k)] {
			t.Fatalf("triangle %d meets the link's box but is not under the front", k)
		}
	}
}

// leftToRight returns each triangle's place in the tree's left-to-right
// order of leaves.
func leftToRight(tree *env.Tree, tris []int32) []int {
	place := map[int32]int{}
	for i, k := range under(tree, tree.Root, nil) {
		place[k] = i
	}
	out := make([]int, len(tris))
	for i, k := range tris {
		out[i] = place[k]
	}
	return out
}

// TestCandidatesAllocateNothing: reused, a traversal allocates nothing
// once its buffers have grown.
func TestCandidatesAllocateNothing(t *testing.T) {
	hand, h := cabtest.Hand(t)
	refit, _ := cab.NewRefitter(cab.CAB, h)
	objs := objectsOf(t, env.GraspScene(4))
	list := []traversal.Object{objs[0], objs[1]}
	poses := make([]geom.Transform, hand.NumLinks())
	r := rand.New(rand.NewPCG(3, 3))
	var all [][]geom.Transform
	for range 20 {
		graspPose(r, hand, poses)
		all = append(all, slices.Clone(poses))
	}
	c := traversal.Candidates{Band: 0.01}
	for _, p := range all {
		refit.Refit(p)
		c.Run(h, list, p)
	}
	i := 0
	n := testing.AllocsPerRun(100, func() {
		p := all[i%len(all)]
		refit.Refit(p)
		c.Run(h, list, p)
		i++
	})
	if n != 0 {
		t.Fatalf("%v allocations per frame", n)
	}
}

// BenchmarkCandidatesGrasp: the traversal stage of the grasp over the
// 8k-triangle ball and table (refit included), both objects wanting fronts.
func BenchmarkCandidatesGrasp(b *testing.B) {
	hand, h := cabtest.Hand(b)
	refit, _ := cab.NewRefitter(cab.CAB, h)
	objs := objectsOf(b, env.GraspScene(5))
	list := []traversal.Object{objs[0], objs[1]}
	r := rand.New(rand.NewPCG(4, 4))
	var all [][]geom.Transform
	poses := make([]geom.Transform, hand.NumLinks())
	for range 64 {
		graspPose(r, hand, poses)
		all = append(all, slices.Clone(poses))
	}
	c := traversal.Candidates{Band: 0.01}
	b.ReportAllocs()
	i, refs := 0, 0
	for b.Loop() {
		p := all[i%len(all)]
		refit.Refit(p)
		c.Run(h, list, p)
		for _, cand := range c.List {
			refs += len(cand.Front)
		}
		i++
	}
	b.ReportMetric(float64(refs)/float64(i), "refs/frame")
	b.ReportMetric(float64(c.BoxTests), "boxtests")
}
