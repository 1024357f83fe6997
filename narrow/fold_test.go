package narrow

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// prismHull is a random convex polygon of k corners, extruded: the shape
// of the hand's palm and link hulls, whose many coplanar faces make
// coplanar facets of A - B.
func prismHull(r *rand.Rand, k int, scale float64) hullShape {
	var pts []geom.Vec3
	h := scale * (0.2 + r.Float64())
	for i := range k {
		a := 2 * math.Pi * (float64(i) + 0.3*r.Float64()) / float64(k)
		rad := scale * (0.6 + 0.4*r.Float64())
		pts = append(pts, geom.Vec3{X: rad * math.Cos(a), Y: rad * math.Sin(a), Z: -h}, geom.Vec3{X: rad * math.Cos(a), Y: rad * math.Sin(a), Z: h})
	}
	return makeHull(pts)
}

// axisTurn is a random quarter-turn rotation: faces of two prisms so
// turned are parallel or perpendicular.
func axisTurn(r *rand.Rand, t geom.Vec3) geom.Transform {
	x := geom.Identity()
	for range r.IntN(4) {
		x = x.Mul(geom.Transform{R: mgl64.Rotate3DX(math.Pi / 2), T: geom.Vec3{}})
	}
	for range r.IntN(4) {
		x = x.Mul(geom.Transform{R: mgl64.Rotate3DZ(math.Pi / 2), T: geom.Vec3{}})
	}
	x.T = t
	return x
}

// TestPenetrationOnCoplanarFacets: EPA on shapes whose difference has
// coplanar facets gives the reference depth along a minimal normal, or
// says it is inexact. A new vertex lying in the plane of coplanar faces
// once was seen, by rounding, from some of them but not from one between
// them; the faces removed then had two rims, the polytope folded, and a
// depth 10% short of the truth was reported exact (the first case below,
// a palm and a fingertip of two hands shaking).
func TestPenetrationOnCoplanarFacets(t *testing.T) {
	t.Parallel()
	check := func(name string, a, b hullShape, xa, xb geom.Transform) bool {
		t.Helper()
		d, p := query(a, b, xa, xb, nil)
		if !d.Overlap {
			return false
		}
		want, _ := refPenetration(a, b, xa, xb)
		got := supportOf(worldVerts(a, xa), p.Normal.Mul(-1)) + supportOf(worldVerts(b, xb), p.Normal)
		if math.Abs(got-p.Depth) > 1e-9*(1+want) {
			t.Fatalf("%s: depth %v but the shapes part along its normal only after %v (exact %v)", name, p.Depth, got, p.Exact)
		}
		if p.Exact && math.Abs(p.Depth-want) > 1e-9*(1+want) {
			t.Fatalf("%s: exact depth %v, reference %v", name, p.Depth, want)
		}
		if !p.Exact && p.Depth < want-1e-12 {
			t.Fatalf("%s: inexact depth %v below the reference %v", name, p.Depth, want)
		}
		return true
	}
	check("palm and fingertip", makeHull(foldPalm), makeHull(foldTip), foldPalmX, foldTipX)
	r := rand.New(rand.NewPCG(71, 72))
	overlaps := 0
	n := 1500
	if testing.Short() { // the race run: a third of the pairs
		n = 500
	}
	for i := range n {
		a, b := prismHull(r, 3+r.IntN(6), 1), prismHull(r, 3+r.IntN(6), 0.5)
		xa := axisTurn(r, geom.Vec3{})
		xb := axisTurn(r, geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Mul(0.6))
		if i%2 == 1 { // and at any angle
			xb = randTransform(r, 0.6)
		}
		if check("prisms", a, b, xa, xb) {
			overlaps++
		}
	}
	if overlaps < n/3 {
		t.Fatalf("only %d of %d prism pairs overlap", overlaps, n)
	}
}

// The palm of a right hand and the middle fingertip of a left hand, from
// frame 56 of two simulated hands shaking (handcontact's test).
var foldPalm = []geom.Vec3{{X: 0.027200000000000002, Z: -0.012750000000000001}, {X: -0.038250000000000006, Y: 0.0304, Z: -0.012750000000000001}, {X: -0.033150000000000006, Y: 0.07106, Z: -0.012750000000000001}, {X: -0.038250000000000006, Y: 0.0304, Z: 0.012750000000000001}, {X: -0.027200000000000002, Z: -0.012750000000000001}, {X: -0.027200000000000002, Z: 0.012750000000000001}, {X: -0.01785, Y: 0.07106, Z: 0.012750000000000001}, {X: 0.0323, Y: 0.056049999999999996, Z: 0.012750000000000001}, {X: -0.01615, Y: 0.07087, Z: 0.012750000000000001}, {X: 0.027200000000000002, Z: 0.012750000000000001}, {X: 0.0357, Y: 0.0304, Z: -0.012750000000000001}, {X: -0.0008500000000000008, Y: 0.07087, Z: -0.012750000000000001}, {X: -0.0008500000000000008, Y: 0.07087, Z: 0.012750000000000001}, {X: 0.0323, Y: 0.056049999999999996, Z: -0.012750000000000001}, {X: 0.0357, Y: 0.0304, Z: 0.012750000000000001}, {X: -0.033150000000000006, Y: 0.07106, Z: 0.012750000000000001}, {X: 0.01615, Y: 0.06384000000000001, Z: -0.012750000000000001}, {X: -0.01785, Y: 0.07106, Z: -0.012750000000000001}, {X: 0.01615, Y: 0.06384000000000001, Z: 0.012750000000000001}}
var foldTip = []geom.Vec3{{X: -0.00442512070498237, Y: -0.0021879, Z: 0.0027327826261677427}, {X: -0.0022536609399764914, Y: 0.00109395, Z: 0.005895646897339473}, {X: -0.005900160939976492, Y: 0.00109395, Z: 0.0036437101682236565}, {X: -0.005469750000000001, Y: -0.0021879, Z: 5.693735055190792e-19}, {X: -0.0016902457049823684, Y: -0.0021879, Z: 0.004421735173004605}, {X: -0.0060775000000000004, Y: 0.019608375, Z: 6.326372283545325e-19}, {X: -0.007293000000000001, Y: 0.00109395, Z: 7.591646740254389e-19}, {X: 0.005469750000000001, Y: -0.0021879}, {X: 0.005900160939976491, Y: 0.00109395, Z: -0.0036437101682236565}, {X: 0.007293000000000001, Y: 0.00109395}, {X: -0.0049168007833137435, Y: 0.019608375, Z: -0.003036425140186379}, {X: -0.005900160939976492, Y: 0.00109395, Z: -0.003643710168223655}, {X: 0.0060775000000000004, Y: 0.019608375}, {X: 0.0016902457049823678, Y: -0.0021879, Z: -0.004421735173004605}, {X: -0.0022536609399764927, Y: 0.00109395, Z: -0.005895646897339472}, {X: -0.00425425, Y: 0.022647125, Z: 4.428460598481727e-19}, {X: -0.0034417605483196205, Y: 0.022647125, Z: -0.0021254975981304654}, {X: 0.0022536609399764905, Y: 0.00109395, Z: -0.005895646897339473}, {X: 0.001690245704982369, Y: -0.0021879, Z: 0.004421735173004604}, {X: -0.00442512070498237, Y: -0.0021879, Z: -0.002732782626167742}, {X: -0.0016902457049823697, Y: -0.0021879, Z: -0.004421735173004604}, {Y: 0.0241665}, {X: -0.001878050783313744, Y: 0.019608375, Z: -0.004913039081116227}, {X: 0.005900160939976491, Y: 0.00109395, Z: 0.0036437101682236556}, {X: 0.004425120704982369, Y: -0.0021879, Z: 0.0027327826261677422}, {X: -0.0013146355483196208, Y: 0.022647125, Z: -0.0034391273567813585}, {X: 0.0013146355483196193, Y: 0.022647125, Z: -0.003439127356781359}, {X: 0.004916800783313743, Y: 0.019608375, Z: -0.0030364251401863804}, {X: 0.001878050783313742, Y: 0.019608375, Z: -0.004913039081116227}, {X: 0.00344176054831962, Y: 0.022647125, Z: -0.0021254975981304662}, {X: 0.00425425, Y: 0.022647125}, {X: 0.004916800783313743, Y: 0.019608375, Z: 0.00303642514018638}, {X: 0.004425120704982369, Y: -0.0021879, Z: -0.0027327826261677427}, {X: 0.00344176054831962, Y: 0.022647125, Z: 0.002125497598130466}, {X: -0.0049168007833137435, Y: 0.019608375, Z: 0.0030364251401863804}, {X: -0.0034417605483196205, Y: 0.022647125, Z: 0.0021254975981304662}, {X: 0.0018780507833137433, Y: 0.019608375, Z: 0.004913039081116227}, {X: -0.0013146355483196197, Y: 0.022647125, Z: 0.003439127356781359}, {X: 0.0013146355483196202, Y: 0.022647125, Z: 0.0034391273567813585}, {X: -0.0018780507833137427, Y: 0.019608375, Z: 0.004913039081116227}, {X: 0.002253660939976492, Y: 0.00109395, Z: 0.005895646897339472}}
var foldPalmX = geom.Transform{R: mgl64.Mat3{-4.440892098500626e-16, -1.0000000000000004, -0, 0.994596872653619, -4.416897392960888e-16, -0.10381262402830271, 0.10381262402830276, -4.6102066177190576e-17, 0.9945968726536185}, T: geom.Vec3{Y: 1, Z: 0.025}}
var foldTipX = geom.Transform{R: mgl64.Mat3{-4.440892098500626e-16, -1.0000000000000004, 0, -0.48494154561738484, -2.153573078166924e-16, 0.8745465667042684, -0.874546566704268, -3.883766937847833e-16, -0.4849415456173851}, T: geom.Vec3{X: 0.009128003009897898, Y: 0.9914999999999999, Z: 0.027346589653987407}}

// TestRimIsOneLoop: the faces an EPA step removes must leave one hole
// with one rim; edges that make two loops, or a vertex starting two
// edges, are refused (the step then ends inexact, never folding).
func TestRimIsOneLoop(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edges [][2]int8
		want  bool
	}{
		{"triangle", [][2]int8{{0, 1}, {1, 2}, {2, 0}}, true},
		{"pentagon, shuffled", [][2]int8{{3, 4}, {0, 1}, {4, 0}, {2, 3}, {1, 2}}, true},
		{"two loops", [][2]int8{{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}}, false},
		{"figure eight", [][2]int8{{0, 1}, {1, 2}, {2, 0}, {0, 3}, {3, 4}, {4, 0}}, false},
		{"open chain", [][2]int8{{0, 1}, {1, 2}, {2, 3}}, false},
		{"reversed edge", [][2]int8{{0, 1}, {2, 1}, {2, 0}}, false},
	} {
		var e epa
		copy(e.edges[:], tc.edges)
		if got := e.rim(len(tc.edges)); got != tc.want {
			t.Errorf("%s: rim %v, want %v", tc.name, got, tc.want)
		}
	}
}
