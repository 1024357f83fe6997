package chains

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// tube is a closed tube along +Z from 0 to length, its cross-section an
// ellipse of half-axes rx, ry sampled at seg points, with rings every
// step: a finger (rx = ry) or a palm (rx > ry).
func tube(rx, ry, length, step float64, seg int) *Mesh {
	m := &Mesh{}
	rings := int(math.Round(length/step)) + 1
	for i := range rings {
		z := length * float64(i) / float64(rings-1)
		for k := range seg {
			s, c := math.Sincos(2 * math.Pi * float64(k) / float64(seg))
			m.Verts = append(m.Verts, geom.Vec3{X: rx * c, Y: ry * s, Z: z})
		}
	}
	for i := range rings - 1 {
		for k := range seg {
			a, b := int32(i*seg+k), int32(i*seg+(k+1)%seg)
			m.Tris = append(m.Tris, [3]int32{a, b, b + int32(seg)}, [3]int32{a, b + int32(seg), a + int32(seg)})
		}
	}
	bottom, top := int32(len(m.Verts)), int32(len(m.Verts)+1)
	m.Verts = append(m.Verts, geom.Vec3{}, geom.Vec3{Z: length})
	last := int32((rings - 1) * seg)
	for k := range int32(seg) {
		m.Tris = append(m.Tris, [3]int32{bottom, (k + 1) % int32(seg), k}, [3]int32{top, last + k, last + (k+1)%int32(seg)})
	}
	return m
}

// allTris is every triangle of m.
func allTris(m *Mesh) []int32 {
	out := make([]int32, len(m.Tris))
	for i := range out {
		out[i] = int32(i)
	}
	return out
}

// fingerSet is a 8 cm finger of radius 9 mm in three links along Z.
func fingerSet(t testing.TB, m *Mesh) *Set {
	t.Helper()
	reg := Region{Name: "finger", Tris: allTris(m), Axis: []geom.Vec3{{}, {Z: 0.04}, {Z: 0.065}, {Z: 0.08}}, Links: []int32{1, 2, 3}}
	s, err := Build(m, []Region{reg}, []int32{-1, 0, 1, 2}, DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// distToMesh is the distance from p to m's surface, by brute force.
func distToMesh(m *Mesh, p geom.Vec3) float64 {
	d := math.Inf(1)
	for _, tr := range m.Tris {
		q, _ := geom.ClosestOnTriangle(geom.Triangle{m.Verts[tr[0]], m.Verts[tr[1]], m.Verts[tr[2]]}, p)
		d = min(d, q.Sub(p).Len())
	}
	return d
}

// TestTubeSpheresFillTheTube: on a round tube the j1 spheres stand on the
// axis, inside the surface and touching it (radius = the distance to the
// surface, to the tessellation's sagitta; at the ends the caps bound it;
// it may poke out by a micrometre, as a level's cross-section of the
// triangulated tube is not quite its nearest surface),
// each overlapping the last by
// the asked share of their radii (to a step), and cover the tube from end
// to end.
func TestTubeSpheresFillTheTube(t *testing.T) {
	const R = 0.009
	m := tube(R, R, 0.08, 0.002, 48)
	s := fingerSet(t, m)
	sagitta := R * (1 - math.Cos(math.Pi/48))
	for i, f := range s.Fits {
		sp := f.Sphere[J1]
		if xy := math.Hypot(sp.C.X, sp.C.Y); xy > 1e-9 {
			t.Errorf("sphere %d is %g m off the axis", i, xy)
		}
		if d := distToMesh(m, sp.C); sp.R > d+1e-6 || sp.R < d-sagitta-1e-12 {
			t.Errorf("sphere %d: radius %v, the surface %v away", i, sp.R, d)
		}
		if i > 0 {
			prev := s.Fits[i-1].Sphere[J1]
			gap := sp.C.Sub(prev.C).Len()
			want := (1 - DefaultParams.Overlap) * (sp.R + prev.R)
			if gap < want || gap > want+DefaultParams.Step+1e-12 {
				t.Errorf("spheres %d and %d are %v apart, want %v (to a step)", i-1, i, gap, want)
			}
		}
	}
	first, last := s.Fits[0].Sphere[J1], s.Fits[len(s.Fits)-1].Sphere[J1]
	if first.C.Z-first.R > 0.002 || last.C.Z+last.R < 0.078 {
		t.Errorf("the spheres span z %v..%v, want the tube's 0..0.08", first.C.Z-first.R, last.C.Z+last.R)
	}
	// The links follow the axis's segments.
	for _, f := range s.Fits {
		z := f.Origin.Z
		if want := map[bool]int32{true: 1, false: 0}[z < 0.04] + map[bool]int32{true: 1, false: 0}[z < 0.065] + 1; f.Link != 4-want {
			t.Errorf("a sphere at z %v is on link %d, want %d", z, f.Link, 4-want)
		}
	}
}

// TestFitsRankAsThePaperSays: j2 holds every vertex of its region; j1'
// fits its region's vertices at least as well as j1 in the least squares
// sense it minimises; on an elliptic (palm-like) tube the two spheres of
// a level stand on either side of its Across direction.
func TestFitsRankAsThePaperSays(t *testing.T) {
	m := tube(0.04, 0.012, 0.08, 0.002, 64)
	reg := Region{Name: "palm", Tris: allTris(m), Axis: []geom.Vec3{{}, {Z: 0.08}}, Links: []int32{0}, Wide: true, Across: geom.Vec3{X: 1}}
	s, err := Build(m, []Region{reg}, []int32{-1}, DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	sides := [2]int{}
	for i, f := range s.Fits {
		sides[f.Side]++
		if c := f.Sphere[J1].C.X; (c > 0) != (f.Side == 0) {
			t.Errorf("sphere %d of side %d is at x %v", i, f.Side, c)
		}
		b := f.Sphere[J2]
		for _, v := range f.Verts {
			if m.Verts[v].Sub(b.C).Len() > b.R*(1+1e-9) {
				t.Fatalf("sphere %d: j2 leaves vertex %d out", i, v)
			}
		}
		if sq(m, f, J1Adjusted) > sq(m, f, J1)*(1+1e-9) {
			t.Errorf("sphere %d: j1' sum of F² %v, j1's %v", i, sq(m, f, J1Adjusted), sq(m, f, J1))
		}
	}
	if sides[0] == 0 || sides[0] != sides[1] {
		t.Errorf("spheres per side %v, want two equal sequences", sides)
	}
}

// sq is the sum of F² of a fit over its region.
func sq(m *Mesh, f Fit, k Method) float64 {
	sum := 0.0
	for _, v := range f.Verts {
		x := f.Sphere[k].R - m.Verts[v].Sub(f.Sphere[k].C).Len()
		sum += x * x
	}
	return sum
}

// rigidPoser moves every vertex by x.
type rigidPoser struct {
	m *Mesh
	x geom.Transform
}

func (p *rigidPoser) Centroid(t int32) geom.Vec3 {
	tri := p.m.Tris[t]
	return p.x.Apply(p.m.Verts[tri[0]].Add(p.m.Verts[tri[1]]).Add(p.m.Verts[tri[2]]).Mul(1.0 / 3))
}

// TestSpheresFollowTheirPivots: moved rigidly, the mesh carries every
// sphere rigidly (centre moved, radius kept), and Update allocates
// nothing; at the bind pose the spheres are the chosen fit.
func TestSpheresFollowTheirPivots(t *testing.T) {
	m := tube(0.009, 0.009, 0.08, 0.002, 48)
	s := fingerSet(t, m)
	for i, f := range s.Fits {
		if s.Spheres[i] != f.Sphere[J1Adjusted] {
			t.Fatalf("sphere %d at bind is %v, want its j1' %v", i, s.Spheres[i], f.Sphere[J1Adjusted])
		}
	}
	x, _ := geom.FromQuat(mgl64.Quat{W: 0.4, V: mgl64.Vec3{0.3, -0.7, 0.2}}, geom.Vec3{X: 0.3, Y: -1.2, Z: 0.8})
	moved := &rigidPoser{m, x}
	s.Update(moved)
	for i, f := range s.Fits {
		want := f.Sphere[J1Adjusted]
		if d := s.Spheres[i].C.Sub(x.Apply(want.C)).Len(); d > 1e-12 || math.Abs(s.Spheres[i].R-want.R) > 1e-12 {
			t.Errorf("sphere %d moved to %v, want %v moved rigidly", i, s.Spheres[i], want)
		}
	}
	if n := testing.AllocsPerRun(20, func() { s.Update(moved) }); n != 0 {
		t.Errorf("Update allocated %v times", n)
	}
}

// linkPoser is rigidPoser with its triangles given to links by link: a
// sphere whose pivots all ride one link takes that link's motion, x.
type linkPoser struct {
	rigidPoser
	link func(tri int32) int32
}

func (p *linkPoser) TriLink(t int32) int32       { return p.link(t) }
func (p *linkPoser) Motion(int32) geom.Transform { return p.x }
func (p *linkPoser) Centroid(t int32) geom.Vec3  { return p.rigidPoser.Centroid(t) }
func sameSpheres(a, b []Sphere, tol float64) bool {
	for i := range a {
		if a[i].C.Sub(b[i].C).Len() > tol || math.Abs(a[i].R-b[i].R) > tol {
			return false
		}
	}
	return len(a) == len(b)
}

// TestUpdateLinkIsUpdate: moving the spheres link by link gives what
// moving them all does, by their pivots or, for a poser of rigid links,
// by the link all of a sphere's pivots ride on.
func TestUpdateLinkIsUpdate(t *testing.T) {
	m := tube(0.009, 0.009, 0.08, 0.002, 48)
	x, _ := geom.FromQuat(mgl64.Quat{W: 0.9, V: mgl64.Vec3{-0.3, 0.1, 0.4}}, geom.Vec3{X: -0.2, Y: 0.5, Z: 0.1})
	for name, link := range map[string]func(int32) int32{
		"one link":          func(int32) int32 { return 0 },
		"alternating links": func(t int32) int32 { return t % 2 },
		"pivots, no links":  nil,
	} {
		s := fingerSet(t, m)
		var at Poser = &rigidPoser{m, x}
		if link != nil {
			at = &linkPoser{rigidPoser{m, x}, link}
		}
		s.Update(&rigidPoser{m, x})
		want := append([]Sphere(nil), s.Spheres...)
		s = fingerSet(t, m)
		for l := range int32(4) {
			s.UpdateLink(at, l)
		}
		if !sameSpheres(s.Spheres, want, 1e-12) {
			t.Errorf("%s: the spheres moved link by link differ from those moved at once", name)
		}
		if n := testing.AllocsPerRun(20, func() { s.UpdateLink(at, 1) }); n != 0 {
			t.Errorf("%s: UpdateLink allocated %v times", name, n)
		}
	}
}

// randomSet is n random spheres on links of a chain of 6, in 3 random
// chains.
func randomSet(r *rand.Rand, n int) *Set {
	s := &Set{Spheres: make([]Sphere, n), Fits: make([]Fit, n)}
	for i := range n {
		s.Spheres[i] = Sphere{C: geom.Vec3{X: r.Float64(), Y: r.Float64(), Z: r.Float64()}, R: 0.05 + 0.1*r.Float64()}
		s.Fits[i].Link = int32(r.IntN(6))
	}
	s.exclude([]int32{-1, 0, 1, 2, 0, 4})
	for range 3 {
		var ch []int32
		for i := range int32(n) {
			if r.IntN(2) == 0 {
				ch = append(ch, i)
			}
		}
		s.Chains = append(s.Chains, ch)
	}
	return s
}

// TestOverlapsAreBruteForce: M2 finds exactly the pairs whose spheres
// (grown by the slack) meet and whose links are neither one nor parent and
// child; M1 finds exactly those inside some chain; the parallel versions
// find the same.
func TestOverlapsAreBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	parent := []int32{-1, 0, 1, 2, 0, 4}
	adjacent := func(a, b int32) bool { return a == b || parent[a] == b || parent[b] == a }
	for i := range 50 {
		s := randomSet(r, 60)
		if i%2 == 1 {
			// Each link's spheres in a cluster of their own, so that the
			// balls bounding links are apart as often as not.
			var centre [6]geom.Vec3
			for l := range centre {
				centre[l] = geom.Vec3{X: r.Float64(), Y: r.Float64(), Z: r.Float64()}.Mul(0.7)
			}
			for k := range s.Spheres {
				s.Spheres[k].C = centre[s.Fits[k].Link].Add(s.Spheres[k].C.Mul(0.3))
			}
		}
		slack := 0.02 * r.Float64()
		var all, inChains []Pair
		for a := range int32(len(s.Spheres)) {
			for b := a + 1; b < int32(len(s.Spheres)); b++ {
				sa, sb := s.Spheres[a], s.Spheres[b]
				if sa.C.Sub(sb.C).Len() > sa.R+sb.R+2*slack || adjacent(s.Fits[a].Link, s.Fits[b].Link) {
					continue
				}
				all = append(all, Pair{a, b})
				for _, ch := range s.Chains {
					if slices.Contains(ch, a) && slices.Contains(ch, b) {
						inChains = append(inChains, Pair{a, b})
					}
				}
			}
		}
		sorted := func(p []Pair) []Pair {
			slices.SortFunc(p, func(x, y Pair) int { return int(x.A-y.A)*1000 + int(x.B-y.B) })
			return p
		}
		if got := sorted(s.OverlapsM2(slack, nil)); !slices.Equal(got, sorted(all)) {
			t.Fatalf("M2: %d pairs, brute force %d", len(got), len(all))
		}
		if got := sorted(s.OverlapsM1(slack, nil)); !slices.Equal(got, sorted(inChains)) {
			t.Fatalf("M1: %d pairs, brute force %d", len(got), len(inChains))
		}
		if err := s.SetChains(s.Chains); err != nil {
			t.Fatal(err)
		}
		var distinct []Pair
		for _, q := range sorted(inChains) {
			if len(distinct) == 0 || distinct[len(distinct)-1] != q {
				distinct = append(distinct, q)
			}
		}
		if got := sorted(s.OverlapsChained(slack, nil)); !slices.Equal(got, distinct) {
			t.Fatalf("chained: %d pairs, brute force %d", len(got), len(distinct))
		}
		for g, lp := range s.LinkPairs() {
			want := slices.ContainsFunc(distinct, func(q Pair) bool {
				a, b := s.Fits[q.A].Link, s.Fits[q.B].Link
				return LinkPair{min(a, b), max(a, b)} == lp
			})
			for range 2 { // the second time from the pair that overlapped
				if got := s.GroupOverlaps(g, slack); got != want {
					t.Fatalf("links %v: the group says overlap %v, brute force %v", lp, got, want)
				}
			}
		}
		p := NewParallel(s, 4)
		if got := sorted(p.M1(slack, nil)); !slices.Equal(got, sorted(inChains)) {
			t.Fatalf("parallel M1: %d pairs, brute force %d", len(got), len(inChains))
		}
		if got := sorted(p.M2(slack, 3, nil)); !slices.Equal(got, sorted(all)) {
			t.Fatalf("parallel M2: %d pairs, brute force %d", len(got), len(all))
		}
	}
}

// TestOverlapsAllocateNothing: the frame loop's tests reuse their output.
func TestOverlapsAllocateNothing(t *testing.T) {
	s := randomSet(rand.New(rand.NewPCG(10, 10)), 60)
	out := s.OverlapsM1(0.01, nil)
	out = s.OverlapsM2(0.01, out)
	if n := testing.AllocsPerRun(20, func() { out = s.OverlapsM2(0.01, s.OverlapsM1(0.01, out[:0])) }); n != 0 {
		t.Errorf("the overlap tests allocated %v times", n)
	}
	if err := s.SetChains(s.Chains); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(20, func() {
		for g := range s.LinkPairs() {
			s.GroupOverlaps(g, 0.01)
		}
	}); n != 0 {
		t.Errorf("GroupOverlaps allocated %v times", n)
	}
}

// TestBuildRefusesWhatCannotWork: bad parameters, an axis outside the
// mesh, a region's links not in the tree, and chains naming spheres that
// are not there are errors.
func TestBuildRefusesWhatCannotWork(t *testing.T) {
	m := tube(0.009, 0.009, 0.08, 0.002, 48)
	good := Region{Name: "f", Tris: allTris(m), Axis: []geom.Vec3{{}, {Z: 0.08}}, Links: []int32{0}}
	outside := good
	outside.Axis = []geom.Vec3{{X: 1}, {X: 1, Z: 0.08}}
	badLink := good
	badLink.Links = []int32{3}
	for name, c := range map[string]struct {
		r Region
		p Params
	}{
		"no rays":        {good, Params{Rays: 0, Step: 0.001, Overlap: 0.3}},
		"no step":        {good, Params{Rays: 80, Overlap: 0.3}},
		"overlap 1":      {good, Params{Rays: 80, Step: 0.001, Overlap: 1}},
		"axis outside":   {outside, DefaultParams},
		"link not there": {badLink, DefaultParams},
	} {
		if _, err := Build(m, []Region{c.r}, []int32{-1}, c.p); err == nil {
			t.Errorf("%s: built", name)
		}
	}
	s, err := Build(m, []Region{good}, []int32{-1}, DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetChains([][]int32{{0, int32(len(s.Spheres))}}); err == nil {
		t.Error("a chain naming a sphere that is not there was taken")
	}
}
