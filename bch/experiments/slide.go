package experiments

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gloved/gloved/bch"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/traversal"
)

// MaxDepth is the deepest level limit of the level-of-detail curve (the
// paper's figure 6b: d = 0..12).
const MaxDepth = 12

// Unlimited is the depth of a query without a limit.
const Unlimited = -1

// bisections halve the step that first finds a collision: the position
// is known to a 256th of a step.
const bisections = 8

// The methods a slide runs: the kinds of tree (the tree methods first,
// indexing slider's trees) and the exact test.
const (
	contourM = iota
	trianglesM
	singleM
	tallM
	exactM
	methods
)

// Slide is one test of the minimum-distance experiment (section 5.1):
// pose A turned by ThetaA at the origin, pose B turned by ThetaB at
// (0, Y) in the plane (tree coordinates), A slid along +U toward it.
type Slide struct {
	A, B           int
	ThetaA, ThetaB float64
	Y              float64
}

// slideResult is where each method first reported a collision as A slid:
// the slide's bracket (lo: none; hi: a collision, lo and hi 1/256 of a
// step apart) and the meshes' exact distance at hi. Depth index d is the
// limit d for d <= MaxDepth, and unlimited at MaxDepth+1.
type slideResult struct {
	s0, step  float64 // where the single cylinders touch; the step
	lo, hi    [methods][MaxDepth + 2]float64
	dist      [methods][MaxDepth + 2]float64
	found     [methods][MaxDepth + 2]bool
	collision bool // the exact test found one: the test counts
}

// slider runs slides on a body's trees.
type slider struct {
	tr     *Trees
	b      *Body
	step   float64
	a, bt  [exactM]bch.Tree // A's trees (moved as it slides) and B's, placed
	shift  [exactM]float64  // how far a[k] is slid
	aw, bw []geom.Triangle
	pa, pb Placement
	col    traversal.Collider
	dist   Distancer
	stack  [][2]int32
}

func newSlider(tr *Trees, b *Body) *slider {
	return &slider{tr: tr, b: b, step: b.Threshold, col: traversal.Collider{FirstContact: true}}
}

// place readies test t: the trees placed, the triangles moved.
func (s *slider) place(t Slide) {
	s.pa, s.pb = Placement{Theta: t.ThetaA}, Placement{Theta: t.ThetaB, V: t.Y}
	src := [exactM][]*bch.Tree{s.tr.Contour, s.tr.Triangles, s.tr.Single, s.tr.Tall}
	for k := range exactM {
		Place(&s.a[k], src[k][t.A], s.pa)
		Place(&s.bt[k], src[k][t.B], s.pb)
		s.shift[k] = 0
	}
	xa, xb := s.tr.Frame.Transform(s.pa), s.tr.Frame.Transform(s.pb)
	s.aw, s.bw = s.aw[:0], s.bw[:0]
	for _, tri := range s.b.Poses[t.A] {
		s.aw = append(s.aw, tri.Transformed(xa))
	}
	for _, tri := range s.b.Poses[t.B] {
		s.bw = append(s.bw, tri.Transformed(xb))
	}
}

// slideTo moves A's tree k to slide position x.
func (s *slider) slideTo(k int, x float64) {
	if d := x - s.shift[k]; d != 0 {
		for i := range s.a[k].Nodes {
			s.a[k].Nodes[i].Circle.X += d
		}
		s.shift[k] = x
	}
}

// hits reports whether method m at depth limit d finds a collision with
// A slid to x.
func (s *slider) hits(m, d int, x float64, test Slide) bool {
	if m == exactM {
		pa := s.pa
		pa.U += x
		pose := s.tr.Frame.Transform(pa).Inverse().Mul(s.tr.Frame.Transform(s.pb))
		return s.col.Collide(s.tr.OBB[test.A], s.tr.OBB[test.B], pose) > 0
	}
	s.slideTo(m, x)
	return bch.Query(&s.a[m], &s.bt[m], d, &s.stack).Hit
}

// run slides A toward B for test t with every method.
func (s *slider) run(t Slide) slideResult {
	s.place(t)
	var r slideResult
	r.step = s.step
	ca, cb := s.a[singleM].Nodes[0].Circle, s.bt[singleM].Nodes[0].Circle
	reach, dv := ca.Radius+cb.Radius, cb.Y-ca.Y
	if math.Abs(dv) >= reach {
		return r // the cylinders pass each other: nothing can collide
	}
	half := math.Sqrt(reach*reach - dv*dv)
	r.s0 = cb.X - ca.X - half
	steps := int(math.Ceil(2*half/s.step)) + 1
	depths := func(m, from int) {
		k := from
		for di := range MaxDepth + 2 {
			d := di
			if di > MaxDepth {
				d = Unlimited
			}
			// A limit finds every collision a deeper one finds, so the
			// next depth's first hit is no earlier than this one's.
			k = s.first(&r, m, d, di, k, steps, t)
			if k < 0 {
				return
			}
		}
	}
	depths(trianglesM, 0)
	// The triangles tree misses nothing, so the exact test's first hit is
	// no earlier than its unlimited one.
	from := 0
	if r.found[trianglesM][MaxDepth+1] {
		from = s.stepOf(&r, r.hi[trianglesM][MaxDepth+1])
	}
	if s.first(&r, exactM, Unlimited, 0, from, steps, t) < 0 {
		return r
	}
	r.collision = true
	depths(contourM, 0)
	depths(tallM, 0)
	s.first(&r, singleM, Unlimited, 0, 0, steps, t)
	for m := range methods {
		for di := range MaxDepth + 2 {
			if r.found[m][di] {
				r.dist[m][di] = s.distanceAt(r.hi[m][di])
			}
		}
	}
	return r
}

// stepOf returns the step index at or after slide position x's step.
func (s *slider) stepOf(r *slideResult, x float64) int {
	return max(0, int(math.Floor((x-r.s0)/s.step)))
}

// first steps method m at limit d from step index from until it finds a
// collision, then bisects the last step; it records the bracket in slot
// di and returns the step index, or -1 when the slide ends first.
func (s *slider) first(r *slideResult, m, d, di, from, steps int, t Slide) int {
	for k := from; k <= steps; k++ {
		x := r.s0 + float64(k)*s.step
		if !s.hits(m, d, x, t) {
			continue
		}
		lo, hi := x-s.step, x
		for range bisections {
			mid := 0.5 * (lo + hi)
			if s.hits(m, d, mid, t) {
				hi = mid
			} else {
				lo = mid
			}
		}
		r.lo[m][di], r.hi[m][di], r.found[m][di] = lo, hi, true
		return k
	}
	return -1
}

// distanceAt is the meshes' exact distance with A slid to x.
func (s *slider) distanceAt(x float64) float64 {
	s.slideTo(trianglesM, x)
	return s.dist.Distance(&s.a[trianglesM], &s.bt[trianglesM], s.aw, s.bw, s.tr.Frame.U.Mul(x))
}

// Depth is the distance at which a collision is found with a depth limit
// (Unlimited: none), over the tests where one was found.
type Depth struct {
	Depth int `json:"depth"`
	Stat
	Misses int `json:"misses"` // tests where it found none
}

// Distance is the paper's minimum-distance experiment (section 5.1,
// figure 6): the exact distance between the meshes (m) when each method
// first finds a collision as one slides toward the other.
type Distance struct {
	Tests   int     `json:"tests"`
	Redrawn int     `json:"redrawn"` // offsets drawn again: the meshes would not have collided
	Step    float64 `json:"step_m"`
	// Cylinder is the single cylinder; Tall the contour BCH with the
	// paper's infinitely tall cylinders, Contour and Triangles the BCH
	// variants as package bch builds them, at d = 0..MaxDepth and
	// unlimited (the last); Exact the exact test (the OBB tree of every
	// triangle), 0 up to the step's 256th.
	Cylinder  Stat    `json:"cylinder"`
	Tall      []Depth `json:"contour_tall"`
	Contour   []Depth `json:"contour"`
	Triangles []Depth `json:"triangles"`
	Exact     Stat    `json:"exact"`
	// The first depth whose mean distance is within 1% of the unlimited
	// one's (-1: none up to MaxDepth); the paper finds 9 for people.
	TallCritical      int `json:"contour_tall_critical_depth"`
	ContourCritical   int `json:"contour_critical_depth"`
	TrianglesCritical int `json:"triangles_critical_depth"`
}

// maxRedraws bounds the offsets drawn for one test.
const maxRedraws = 1000

// Distances runs n slide tests on random pairs of poses, each turned at
// random; B's offset across the slide is drawn uniformly within 1.3 mean
// single-cylinder radii (the paper's ±0.5 m for people 0.34-0.42 m in
// radius), again until the meshes collide on the way.
func Distances(ctx context.Context, b *Body, tr *Trees, n int, r *rand.Rand) (Distance, error) {
	res := Distance{Step: b.Threshold}
	radius := 0.0
	for _, t := range tr.Single {
		radius += t.Nodes[0].Circle.Radius
	}
	radius /= float64(len(tr.Single))
	s := newSlider(tr, b)
	var all []slideResult
	for len(all) < n {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		t := Slide{A: r.IntN(len(b.Poses)), B: r.IntN(len(b.Poses)), ThetaA: 2 * math.Pi * r.Float64(), ThetaB: 2 * math.Pi * r.Float64()}
		var sr slideResult
		for tries := 0; !sr.collision; tries++ {
			if tries == maxRedraws {
				return res, fmt.Errorf("experiments: %s: no collision in %d offsets of poses %d and %d", b.Name, tries, t.A, t.B)
			}
			if tries > 0 {
				res.Redrawn++
			}
			t.Y = 1.3 * radius * (2*r.Float64() - 1)
			sr = s.run(t)
		}
		all = append(all, sr)
	}
	res.Tests = len(all)
	column := func(m, di int) ([]float64, int) {
		var xs []float64
		miss := 0
		for _, sr := range all {
			if sr.found[m][di] {
				xs = append(xs, sr.dist[m][di])
			} else {
				miss++
			}
		}
		return xs, miss
	}
	xs, _ := column(singleM, 0)
	res.Cylinder = Summarise(xs)
	xs, _ = column(exactM, 0)
	res.Exact = Summarise(xs)
	for _, v := range []struct {
		m        int
		rows     *[]Depth
		critical *int
	}{{tallM, &res.Tall, &res.TallCritical}, {contourM, &res.Contour, &res.ContourCritical}, {trianglesM, &res.Triangles, &res.TrianglesCritical}} {
		means := make([]float64, MaxDepth+1)
		for di := range MaxDepth + 2 {
			xs, miss := column(v.m, di)
			d := Depth{Depth: di, Stat: Summarise(xs), Misses: miss}
			if di > MaxDepth {
				d.Depth = Unlimited
			} else {
				means[di] = d.Mean
			}
			*v.rows = append(*v.rows, d)
		}
		*v.critical = CriticalDepth(means, (*v.rows)[MaxDepth+1].Mean)
	}
	return res, nil
}

// CriticalDepth returns the first depth whose mean distance means[d] is
// within 1% of the unlimited mean, or -1 if none is.
func CriticalDepth(means []float64, unlimited float64) int {
	for d, m := range means {
		if math.Abs(m-unlimited) <= 0.01*unlimited {
			return d
		}
	}
	return -1
}
