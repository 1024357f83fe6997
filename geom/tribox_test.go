package geom

import (
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

func triHalfspaces(t Triangle, hs []halfspace) []halfspace {
	n := t.Normal().Normalize()
	hs = append(hs, halfspace{n, n.Dot(t[0])}, halfspace{n.Mul(-1), -n.Dot(t[0])})
	for i := range 3 {
		a, b, c := t[i], t[(i+1)%3], t[(i+2)%3]
		u := b.Sub(a).Cross(n).Normalize()
		if u.Dot(c.Sub(a)) > 0 {
			u = u.Mul(-1)
		}
		hs = append(hs, halfspace{u, u.Dot(a)})
	}
	return hs
}

func TestTriOBBMatchesVertexEnumeration(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	var hs []halfspace
	kinds, n := map[bool]int{}, draws(50_000)
	for i := range n {
		b := OBB{Center: randVec(r, 1), Axes: randRotation(r), Half: Vec3{0.05 + r.Float64(), 0.05 + r.Float64(), 0.05 + r.Float64()}}
		if i%5 == 0 {
			b.Half.Z = 0 // a rectangle
		}
		var tri Triangle
		for k := range 3 {
			tri[k] = randVec(r, 2)
		}
		if tri.Area() < 1e-3 {
			continue
		}
		hs = triHalfspaces(tri, boxHalfspaces(b, hs[:0]))
		got := TriOBB(tri, b)
		if feasible(hs, 0, 1e-12) && !got {
			t.Fatalf("case %d: triangle meets box but TriOBB says apart\ntri=%v\nbox=%+v", i, tri, b)
		}
		if got && !feasible(hs, 1e-6, 1e-12) {
			t.Fatalf("case %d: triangle is apart from box but TriOBB says they meet\ntri=%v\nbox=%+v", i, tri, b)
		}
		kinds[got]++
	}
	if kinds[true] < n/10 || kinds[false] < n/10 {
		t.Fatalf("workload is lopsided: %v", kinds)
	}
}

func TestTriOBBDegenerateTriangles(t *testing.T) {
	box := OBB{Axes: mgl64.Ident3(), Half: Vec3{1, 1, 1}}
	tests := []struct {
		name string
		tri  Triangle
		want bool
	}{
		{"point inside", Triangle{{0.5, 0.5, 0.5}, {0.5, 0.5, 0.5}, {0.5, 0.5, 0.5}}, true},
		{"point outside", Triangle{{1.5, 0.5, 0.5}, {1.5, 0.5, 0.5}, {1.5, 0.5, 0.5}}, false},
		{"segment past a corner", Triangle{{2.5, 0, 0}, {0, 2.5, 0}, {0, 2.5, 0}}, false},
		{"segment through the box", Triangle{{-3, 0, 0}, {3, 0.1, 0}, {3, 0.1, 0}}, true},
		{"segment touching an edge", Triangle{{2, 0, 1}, {0, 2, 1}, {0, 2, 1}}, true},
	}
	for _, tc := range tests {
		if got := TriOBB(tc.tri, box); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// BenchmarkTriOBBMixed: random triangles against random boxes, about half
// meeting: the filter's cost, the exact stage never reached.
func BenchmarkTriOBBMixed(b *testing.B) {
	r := rand.New(rand.NewPCG(15, 16))
	var tris []Triangle
	var boxes []OBB
	for range 1024 {
		tris = append(tris, Triangle{randVec(r, 1), randVec(r, 1), randVec(r, 1)})
		q := mgl64.Quat{W: r.NormFloat64(), V: randVec(r, 1).Mgl()}
		x, _ := FromQuat(q, randVec(r, 0.5))
		boxes = append(boxes, OBB{Center: x.T, Axes: x.R, Half: Vec3{0.3, 0.2, 0.1}})
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		TriOBB(tris[i&1023], boxes[i&1023])
		i++
	}
}
