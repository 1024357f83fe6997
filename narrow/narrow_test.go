package narrow

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

func query(a, b hullShape, xa, xb geom.Transform, c *Cache) (DistanceResult, PenetrationResult) {
	sa, sb := Shape{P: a.poly, X: xa}, Shape{P: b.poly, X: xb}
	d := Distance(&sa, &sb, c)
	var p PenetrationResult
	if d.Overlap {
		p = Penetration(&sa, &sb, &d, nil)
	}
	return d, p
}

func TestRandomPairsAgainstReferences(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(61, 61))
	overlaps, apart := 0, 0
	n := 1500
	if testing.Short() { // the race run: a third of the pairs
		n = 500
	}
	for i := range n {
		a := randomHull(r, 6+r.IntN(20), 1)
		b := randomHull(r, 6+r.IntN(20), 1)
		xa, xb := randTransform(r, 0.3), randTransform(r, 1.6)
		d, p := query(a, b, xa, xb, nil)
		pd, pdir := refPenetration(a, b, xa, xb)
		if d.Overlap != (pd >= -1e-9) {
			t.Fatalf("pair %d: GJK overlap %v but reference separation %v", i, d.Overlap, -pd)
		}
		if d.Overlap {
			overlaps++
			if !p.Exact {
				t.Fatalf("pair %d: penetration not converged: %+v", i, p)
			}
			if math.Abs(p.Depth-pd) > 1e-9*(1+pd) {
				t.Fatalf("pair %d: depth %v, reference %v", i, p.Depth, pd)
			}
			// Pushing A along the normal by the depth separates.
			if got := supportOf(worldVerts(a, xa), p.Normal.Mul(-1)) + supportOf(worldVerts(b, xb), p.Normal); math.Abs(got-p.Depth) > 1e-9*(1+pd) {
				t.Fatalf("pair %d: normal %v is not a minimal direction (%v vs %v; reference %v)", i, p.Normal, got, p.Depth, pdir)
			}
			continue
		}
		apart++
		want := refDistance(a, b, xa, xb)
		if math.Abs(d.Distance-want) > 1e-9*(1+want) {
			t.Fatalf("pair %d: distance %v, reference %v", i, d.Distance, want)
		}
		if math.Abs(d.PointA.Sub(d.PointB).Len()-d.Distance) > 1e-12 {
			t.Fatalf("pair %d: witnesses do not match the distance", i)
		}
	}
	if overlaps < n/5 || apart < n/5 {
		t.Fatalf("workload lopsided: %d overlaps, %d apart", overlaps, apart)
	}
}

func TestAnalyticCases(t *testing.T) {
	cube := boxHull(geom.Vec3{X: 1, Y: 1, Z: 1})
	plate := boxHull(geom.Vec3{X: 10, Y: 10, Z: 0.5})
	at := func(p geom.Vec3) geom.Transform { return geom.Transform{R: mgl64.Ident3(), T: p} }
	cornerDown := mgl64.QuatBetweenVectors(mgl64.Vec3{1, 1, 1}.Normalize(), mgl64.Vec3{0, 0, -1}).Mat4().Mat3()
	tests := []struct {
		name      string
		a, b      hullShape
		xa, xb    geom.Transform
		depth     float64
		normal    geom.Vec3
		deepestZ  float64 // z of PointA, NaN to skip
		checkZOnB float64 // z of PointB, NaN to skip
	}{
		// A unit cube resting 0.3 into a plate whose top is z = 0.
		{"box into a plane", cube, plate, at(geom.Vec3{X: 0.2, Y: -0.1, Z: 0.7}), at(geom.Vec3{Z: -0.5}), 0.3, geom.Vec3{Z: 1}, -0.3, 0},
		// A tetrahedron's tip 0.2 into the cube's top face.
		{"vertex into a face", makeHull([]geom.Vec3{{Z: 0.8}, {X: 1, Z: 2}, {X: -1, Y: 1, Z: 2}, {X: -1, Y: -1, Z: 2}}), cube, at(geom.Vec3{}), at(geom.Vec3{}), 0.2, geom.Vec3{Z: 1}, 0.8, 1},
		// Two bars with diamond sections crossing at right angles: their
		// edges meet, 0.1 deep, and the way out is along x × y.
		{"edge across edge", boxHull(geom.Vec3{X: 5, Y: 1, Z: 1}), boxHull(geom.Vec3{X: 1, Y: 5, Z: 1}),
			geom.Transform{R: mgl64.HomogRotate3DX(math.Pi / 4).Mat3(), T: geom.Vec3{Z: math.Sqrt2 - 0.05}},
			geom.Transform{R: mgl64.HomogRotate3DY(math.Pi / 4).Mat3(), T: geom.Vec3{Z: -math.Sqrt2 + 0.05}}, 0.1, geom.Vec3{Z: 1}, math.NaN(), math.NaN()},
		// A small cube wholly inside a big one, nearest the +x wall.
		{"link inside a convex object", boxHull(geom.Vec3{X: 0.5, Y: 0.5, Z: 0.5}), boxHull(geom.Vec3{X: 5, Y: 5, Z: 5}), at(geom.Vec3{X: 4, Y: 0.3, Z: -0.2}), at(geom.Vec3{}), 1.5, geom.Vec3{X: 1}, math.NaN(), math.NaN()},
		// A turned cube sunk corner-first 0.25 into the plate.
		{"corner into a plane", cube, plate, geom.Transform{R: cornerDown, T: geom.Vec3{Z: 1.5}}, at(geom.Vec3{Z: -0.5}), 0, geom.Vec3{Z: 1}, math.NaN(), 0},
	}
	for _, tc := range tests {
		d, p := query(tc.a, tc.b, tc.xa, tc.xb, nil)
		if !d.Overlap {
			t.Errorf("%s: no overlap found (distance %v)", tc.name, d.Distance)
			continue
		}
		want := tc.depth
		if tc.name == "corner into a plane" {
			// The lowest corner is sqrt(3) below the center.
			want = math.Sqrt(3) - 1.5
		}
		if math.Abs(p.Depth-want) > 1e-9*math.Max(1, want) || !p.Exact {
			t.Errorf("%s: depth %v (exact %v), want %v", tc.name, p.Depth, p.Exact, want)
		}
		if p.Normal.Sub(tc.normal).Len() > 1e-9 {
			t.Errorf("%s: normal %v, want %v", tc.name, p.Normal, tc.normal)
		}
		if !math.IsNaN(tc.deepestZ) && math.Abs(p.PointA.Z-tc.deepestZ) > 1e-9 {
			t.Errorf("%s: deepest point %v, want z = %v", tc.name, p.PointA, tc.deepestZ)
		}
		if !math.IsNaN(tc.checkZOnB) && math.Abs(p.PointB.Z-tc.checkZOnB) > 1e-9 {
			t.Errorf("%s: point on B %v, want z = %v", tc.name, p.PointB, tc.checkZOnB)
		}
		if got := p.PointB.Sub(p.PointA); math.Abs(got.Len()-p.Depth) > 1e-9*math.Max(1, p.Depth) {
			t.Errorf("%s: points %v %v are not depth apart", tc.name, p.PointA, p.PointB)
		}
	}
}

func TestDistanceAnalytic(t *testing.T) {
	cube := boxHull(geom.Vec3{X: 1, Y: 1, Z: 1})
	d, _ := query(cube, cube, geom.Transform{R: mgl64.Ident3()}, geom.Transform{R: mgl64.Ident3(), T: geom.Vec3{X: 2.5, Y: 0.3}}, nil)
	if d.Overlap || math.Abs(d.Distance-0.5) > 1e-12 || math.Abs(d.PointA.X-1) > 1e-12 || math.Abs(d.PointB.X-1.5) > 1e-12 {
		t.Fatalf("face to face 0.5 apart: %+v", d)
	}
	// Exactly touching faces: an overlap of depth 0.
	d, p := query(cube, cube, geom.Transform{R: mgl64.Ident3()}, geom.Transform{R: mgl64.Ident3(), T: geom.Vec3{X: 2, Y: 0.3}}, nil)
	if !d.Overlap || p.Depth > 1e-12 || math.IsNaN(p.Normal.X) {
		t.Fatalf("touching faces: %+v %+v", d, p)
	}
}

func finite3(v geom.Vec3) bool {
	return !math.IsNaN(v.X+v.Y+v.Z) && !math.IsInf(v.X+v.Y+v.Z, 0)
}

// TestNeverNaNAndSymmetric: random and degenerate inputs (flat shapes,
// repeated points, single points, huge and tiny coordinates) give finite
// answers, and swapping the shapes swaps the answers.
func TestNeverNaNAndSymmetric(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(62, 62))
	shapes := func(scale float64) hullShape {
		switch r.IntN(5) {
		case 0: // flat: a triangle
			p := []geom.Vec3{{X: r.NormFloat64(), Y: r.NormFloat64()}, {X: r.NormFloat64(), Y: r.NormFloat64()}, {X: r.NormFloat64(), Y: r.NormFloat64()}}
			for i := range p {
				p[i] = p[i].Mul(scale)
			}
			poly, _ := NewPolytope(p, nil)
			return hullShape{verts: p, poly: poly}
		case 1: // a point
			p := []geom.Vec3{{X: r.NormFloat64() * scale}}
			poly, _ := NewPolytope(p, nil)
			return hullShape{verts: p, poly: poly}
		case 2: // a segment, with a repeated end
			p := []geom.Vec3{{}, {X: scale}, {X: scale}}
			poly, _ := NewPolytope(p, nil)
			return hullShape{verts: p, poly: poly}
		}
		return randomHull(r, 5+r.IntN(30), scale)
	}
	n := 100000
	if testing.Short() { // the race run: a third of the cases
		n = 30000
	}
	for i := range n {
		scale := math.Pow(10, float64(r.IntN(13)-6))
		a, b := shapes(scale), shapes(scale)
		xa, xb := randTransform(r, scale), randTransform(r, scale)
		xa.T, xb.T = xa.T.Add(geom.Vec3{X: 1e3 * scale * float64(r.IntN(2))}), xb.T.Add(geom.Vec3{X: 1e3 * scale * float64(r.IntN(2))})
		d1, p1 := query(a, b, xa, xb, nil)
		d2, p2 := query(b, a, xb, xa, nil)
		for _, v := range []geom.Vec3{d1.PointA, d1.PointB, p1.Normal, p1.PointA, p1.PointB, d2.PointA, p2.Normal} {
			if !finite3(v) {
				t.Fatalf("case %d: non-finite output %+v %+v", i, d1, p1)
			}
		}
		if math.IsNaN(d1.Distance) || math.IsNaN(p1.Depth) || p1.Depth < 0 {
			t.Fatalf("case %d: distance %v depth %v", i, d1.Distance, p1.Depth)
		}
		if d1.Overlap != d2.Overlap {
			// Within rounding of touching the two orders may differ.
			if math.Max(d1.Distance, d2.Distance) > 1e-9*scale {
				t.Fatalf("case %d: overlap %v one way, %v the other (distances %v %v)", i, d1.Overlap, d2.Overlap, d1.Distance, d2.Distance)
			}
			continue
		}
		if !d1.Overlap && math.Abs(d1.Distance-d2.Distance) > 1e-9*scale*10 {
			t.Fatalf("case %d: distance %v one way, %v the other", i, d1.Distance, d2.Distance)
		}
		if d1.Overlap && p1.Exact && p2.Exact && math.Abs(p1.Depth-p2.Depth) > 1e-9*scale*10 {
			t.Fatalf("case %d: depth %v one way, %v the other", i, p1.Depth, p2.Depth)
		}
	}
}

func TestQueriesAllocateNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(63, 63))
	a, b := randomHull(r, 40, 1), randomHull(r, 40, 1)
	sa, sb := Shape{P: a.poly, X: geom.Identity()}, Shape{P: b.poly, X: geom.Transform{R: mgl64.Ident3(), T: geom.Vec3{X: 0.5}}}
	var c Cache
	n := testing.AllocsPerRun(100, func() {
		if _, ok := PenetrationCached(&sa, &sb, &c); ok {
			return
		}
		d := Distance(&sa, &sb, &c)
		if d.Overlap {
			Penetration(&sa, &sb, &d, &c)
		}
	})
	if n != 0 {
		t.Fatalf("%v allocations per query", n)
	}
}

func benchPair(b *testing.B, offset float64, warm bool) {
	r := rand.New(rand.NewPCG(64, 64))
	a, c := randomHull(r, 60, 1), randomHull(r, 60, 1)
	sa, sb := Shape{P: a.poly, X: geom.Identity()}, Shape{P: c.poly, X: geom.Transform{R: mgl64.Ident3(), T: geom.Vec3{X: offset}}}
	var cache Cache
	b.ReportAllocs()
	for b.Loop() {
		if !warm {
			cache.Reset()
		}
		// Move B a little each frame, as a tracked hand does.
		sb.X.T.Y += 1e-4
		if sb.X.T.Y > 0.05 {
			sb.X.T.Y = 0
		}
		if _, ok := PenetrationCached(&sa, &sb, &cache); ok {
			continue
		}
		d := Distance(&sa, &sb, &cache)
		if d.Overlap {
			Penetration(&sa, &sb, &d, &cache)
		}
	}
}

func BenchmarkDistanceCold(b *testing.B)    { benchPair(b, 4, false) }
func BenchmarkDistanceWarm(b *testing.B)    { benchPair(b, 4, true) }
func BenchmarkPenetrationCold(b *testing.B) { benchPair(b, 1, false) }
func BenchmarkPenetrationWarm(b *testing.B) { benchPair(b, 1, true) }

func TestIntersectsAgreesWithDistance(t *testing.T) {
	r := rand.New(rand.NewPCG(65, 65))
	for i := range 3000 {
		a, b := randomHull(r, 5+r.IntN(20), 1), randomHull(r, 3+r.IntN(20), 1)
		sa, sb := Shape{P: a.poly, X: randTransform(r, 0.3)}, Shape{P: b.poly, X: randTransform(r, 1.6)}
		d := Distance(&sa, &sb, nil)
		if d.Distance < 1e-9 && !d.Overlap {
			continue // within rounding of touching
		}
		if got := Intersects(&sa, &sb); got != d.Overlap {
			t.Fatalf("pair %d: Intersects %v, Distance overlap %v (distance %v)", i, got, d.Overlap, d.Distance)
		}
	}
}

// TestCapsuleTipIntoSphere: a capsule-like link (a rod with a pointed
// tip) enters a tessellated sphere through the middle of one of its faces;
// the depth is the tip's distance below that face's plane and the way out
// is the face's normal.
func TestCapsuleTipIntoSphere(t *testing.T) {
	sphere := makeHull(icosphere(2))
	// The face nearest the +z pole direction tilted a little.
	dir := geom.Vec3{X: 0.2, Y: 0.1, Z: 1}.Normalize()
	best, bi := math.Inf(-1), 0
	w := sphere.verts
	for i, f := range sphere.tris {
		c := w[f[0]].Add(w[f[1]]).Add(w[f[2]]).Mul(1.0 / 3)
		if d := c.Normalize().Dot(dir); d > best {
			best, bi = d, i
		}
	}
	f := sphere.tris[bi]
	a, b, c := w[f[0]], w[f[1]], w[f[2]]
	n := b.Sub(a).Cross(c.Sub(a)).Normalize()
	if n.Dot(a) < 0 {
		n = n.Mul(-1)
	}
	centroid := a.Add(b).Add(c).Mul(1.0 / 3)
	for _, depth := range []float64{1e-6, 1e-3, 0.01} {
		// Rod along -n, radius 0.01, length 0.5, pointed tip.
		var pts []geom.Vec3
		u := n.Cross(geom.Vec3{X: 1}).Normalize()
		v := n.Cross(u)
		for k := range 12 {
			ang := 2 * math.Pi * float64(k) / 12
			off := u.Mul(0.01 * math.Cos(ang)).Add(v.Mul(0.01 * math.Sin(ang)))
			pts = append(pts, n.Mul(0.02).Add(off), n.Mul(0.5).Add(off))
		}
		pts = append(pts, geom.Vec3{}) // the tip
		rod := makeHull(pts)
		tip := centroid.Sub(n.Mul(depth))
		x := geom.Transform{R: mgl64.Ident3(), T: tip}
		d, p := query(rod, sphere, x, geom.Identity(), nil)
		if !d.Overlap || !p.Exact {
			t.Fatalf("depth %v: overlap %v exact %v", depth, d.Overlap, p.Exact)
		}
		if math.Abs(p.Depth-depth) > 1e-9*math.Max(depth, 1e-3) || p.Normal.Sub(n).Len() > 1e-9 {
			t.Errorf("depth %v: got %v along %v, want along %v", depth, p.Depth, p.Normal, n)
		}
		if p.PointA.Sub(tip).Len() > 1e-9 {
			t.Errorf("depth %v: deepest point %v, want the tip %v", depth, p.PointA, tip)
		}
	}
}

// icosphere returns the vertices of a subdivided icosahedron on the unit
// sphere.
func icosphere(level int) []geom.Vec3 {
	g := (1 + math.Sqrt(5)) / 2
	verts := []geom.Vec3{{X: -1, Y: g}, {X: 1, Y: g}, {X: -1, Y: -g}, {X: 1, Y: -g}, {Y: -1, Z: g}, {Y: 1, Z: g}, {Y: -1, Z: -g}, {Y: 1, Z: -g}, {X: g, Z: -1}, {X: g, Z: 1}, {X: -g, Z: -1}, {X: -g, Z: 1}}
	faces := [][3]int{{0, 11, 5}, {0, 5, 1}, {0, 1, 7}, {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8}, {3, 9, 4}, {3, 4, 2}, {3, 2, 6}, {3, 6, 8}, {3, 8, 9}, {4, 9, 5}, {2, 4, 11}, {6, 2, 10}, {8, 6, 7}, {9, 8, 1}}
	for range level {
		var next [][3]int
		mid := map[[2]int]int{}
		m := func(a, b int) int {
			k := [2]int{min(a, b), max(a, b)}
			if i, ok := mid[k]; ok {
				return i
			}
			verts = append(verts, verts[a].Add(verts[b]).Mul(0.5))
			mid[k] = len(verts) - 1
			return len(verts) - 1
		}
		for _, f := range faces {
			ab, bc, ca := m(f[0], f[1]), m(f[1], f[2]), m(f[2], f[0])
			next = append(next, [3]int{f[0], ab, ca}, [3]int{f[1], bc, ab}, [3]int{f[2], ca, bc}, [3]int{ab, bc, ca})
		}
		faces = next
	}
	for i := range verts {
		verts[i] = verts[i].Normalize()
	}
	return verts
}

func TestSeparationDecidesAgainstTheLimit(t *testing.T) {
	// Random hull pairs apart, near and overlapping: the bound never
	// exceeds the distance, and passes every limit the distance passes.
	r := rand.New(rand.NewPCG(65, 66))
	var cache Cache
	decided := 0
	for i := range 400 {
		a, b := randomHull(r, 30, 1), randomHull(r, 8, 0.5)
		off := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize().Mul(0.5 + 3*r.Float64())
		sa, sb := Shape{P: a.poly, X: geom.Identity()}, Shape{P: b.poly, X: geom.Transform{R: mgl64.Ident3(), T: off}}
		d := Distance(&sa, &sb, nil)
		for _, f := range []float64{0, 0.5, 0.99, 1.01, 2} {
			limit := d.Distance * f
			if d.Overlap {
				limit = 0.1 * f
			}
			if i%2 == 1 {
				cache.Reset()
			}
			lb := Separation(&sa, &sb, limit, &cache)
			if lb > d.Distance*(1+1e-9) {
				t.Fatalf("case %d limit %v: bound %v above the distance %v", i, limit, lb, d.Distance)
			}
			if !d.Overlap && d.Distance > limit*(1+1e-6) {
				if lb <= limit {
					t.Fatalf("case %d limit %v: bound %v, the distance %v is beyond it", i, limit, lb, d.Distance)
				}
				decided++
			}
		}
	}
	if decided < 500 {
		t.Fatalf("%d decisions: the cases test little", decided)
	}
}
