package env

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gloved/gloved/geom"
)

// SelfCrossing finds two triangles of the tree's mesh that cross
// (geom.TrianglesCross: they meet other than along the edge or at the
// vertex they share), descending the tree against itself on every CPU;
// ok is false when none do. A closed mesh that crosses itself bounds no
// solid: which side of it a point is on then depends on which part of it
// is nearest, and can change within one empty region of space.
//
// Boxes that the separating-axis test finds apart in float64 are passed
// over, so two parts of the surface that only touch where their boxes
// touch may go unseen. Which crossing pair is returned, of several,
// depends on the goroutines' timing.
func (t *Tree) SelfCrossing() (a, b int32, ok bool) {
	a, b, ok, _ = t.SelfCrossingContext(context.Background())
	return a, b, ok
}

// SelfCrossingContext is SelfCrossing, given up, with ctx's error, soon
// after ctx ends (a million triangles take seconds).
func (t *Tree) SelfCrossingContext(ctx context.Context) (a, b int32, ok bool, err error) {
	if t.Root < 0 {
		return 0, 0, false, nil // one triangle
	}
	flag := watch(ctx)
	defer flag.close()
	// Breadth first to some pairs for each goroutine to take, then depth
	// first from each.
	pairs := [][2]int32{{t.Root, t.Root}}
	var boxes [2]BoxCache // each side's packed boxes decoded, one pair per goroutine
	for len(pairs) > 0 && len(pairs) < 256 {
		var next [][2]int32
		for _, p := range pairs {
			var hit [2]int32
			var found bool
			if next, hit, found = t.crossStep(next, p, &boxes); found {
				return hit[0], hit[1], true, nil
			}
		}
		pairs = next
	}
	var (
		next atomic.Int64
		mu   sync.Mutex
		wg   sync.WaitGroup
		stop atomic.Bool
	)
	for range min(runtime.GOMAXPROCS(0), len(pairs)) {
		wg.Go(func() {
			var stack [][2]int32
			var boxes [2]BoxCache
			for !stop.Load() && !flag.set.Load() {
				i := next.Add(1) - 1
				if i >= int64(len(pairs)) {
					return
				}
				stack = append(stack[:0], pairs[i])
				for len(stack) > 0 && !stop.Load() && !flag.set.Load() {
					p := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					var hit [2]int32
					var found bool
					if stack, hit, found = t.crossStep(stack, p, &boxes); found {
						mu.Lock()
						a, b, ok = hit[0], hit[1], true
						mu.Unlock()
						stop.Store(true)
					}
				}
			}
		})
	}
	wg.Wait()
	if !ok && flag.set.Load() {
		return 0, 0, false, fmt.Errorf("env: self-crossing: %w", ctx.Err())
	}
	return a, b, ok, nil
}

// crossStep takes one pair of tree references: two triangles it tests,
// a triangle or node against a node whose box it meets it splits (the
// larger box's node), appending the pairs to out; a node against itself
// gives its children against themselves and each other. It reports the
// two triangles when they cross.
func (t *Tree) crossStep(out [][2]int32, p [2]int32, boxes *[2]BoxCache) ([][2]int32, [2]int32, bool) {
	ra, rb := p[0], p[1]
	ta, leafA := Leaf(ra)
	tb, leafB := Leaf(rb)
	switch {
	case ra == rb:
		if leafA {
			return out, p, false // a triangle and itself
		}
		c := t.Nodes[ra].Child
		return append(out, [2]int32{c[0], c[0]}, [2]int32{c[1], c[1]}, [2]int32{c[0], c[1]}), p, false
	case leafA && leafB:
		if geom.TrianglesCross(t.Mesh.Triangle(int(ta)), t.Mesh.Triangle(int(tb))) {
			return out, [2]int32{min(ta, tb), max(ta, tb)}, true
		}
		return out, p, false
	case leafA:
		if geom.TriOBBMayMeet(t.Mesh.Triangle(int(ta)), t.BoxIn(rb, &boxes[1])) {
			c := t.Nodes[rb].Child
			out = append(out, [2]int32{ra, c[0]}, [2]int32{ra, c[1]})
		}
		return out, p, false
	case leafB:
		if geom.TriOBBMayMeet(t.Mesh.Triangle(int(tb)), t.BoxIn(ra, &boxes[0])) {
			c := t.Nodes[ra].Child
			out = append(out, [2]int32{c[0], rb}, [2]int32{c[1], rb})
		}
		return out, p, false
	}
	na, nb := &t.Nodes[ra], &t.Nodes[rb]
	ba, bb := t.BoxIn(ra, &boxes[0]), t.BoxIn(rb, &boxes[1])
	if geom.BoxesDisjoint(ba, bb) {
		return out, p, false
	}
	if geom.SplitFirst(ba, bb) {
		return append(out, [2]int32{na.Child[0], rb}, [2]int32{na.Child[1], rb}), p, false
	}
	return append(out, [2]int32{ra, nb.Child[0]}, [2]int32{ra, nb.Child[1]}), p, false
}
