package experiments

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gloved/gloved/geom"
)

// TestHumanoidIsThePapersSize: the humanoid has about the paper's 2,850
// triangles and stands about 1.8 m tall on the ground.
func TestHumanoidIsThePapersSize(t *testing.T) {
	h := NewHumanoid()
	tris := h.Pose(make([]float64, h.NumAngles()), nil)
	if n := len(tris); n < 2850*95/100 || n > 2850*105/100 {
		t.Errorf("got %d triangles, want 2,850 ± 5%%", n)
	}
	lo, hi := Extent(tris, geom.Vec3{Z: 1})
	if lo < 0 || lo > 0.05 || hi < 1.7 || hi > 1.9 {
		t.Errorf("standing, it spans %.3f..%.3f m in height, want the ground to about 1.8 m", lo, hi)
	}
	r := rand.New(rand.NewPCG(3, 3))
	angles := make([]float64, h.NumAngles())
	for range 50 {
		h.RandomAngles(r, angles)
		if n := len(h.Pose(angles, nil)); n != len(tris) {
			t.Fatalf("a random pose has %d triangles, the rest pose %d", n, len(tris))
		}
	}
}

// TestCapsuleMeshIsClosedAndOutward: every edge of a capsule's mesh is
// shared by two triangles in opposite directions, and the divergence
// theorem gives a positive volume just under the true capsule's
// (the mesh is inscribed).
func TestCapsuleMeshIsClosedAndOutward(t *testing.T) {
	for _, c := range []Capsule{
		{A: geom.Vec3{}, B: geom.Vec3{Z: 0.4}, Radius: 0.07, Around: 9, Rings: 2, Bands: 8},
		{A: geom.Vec3{X: 0.1, Y: 0.2, Z: 0.3}, B: geom.Vec3{X: 0.3, Y: -0.1, Z: 0.35}, Radius: 0.05, Around: 24, Rings: 6, Bands: 1},
		{A: geom.Vec3{}, B: geom.Vec3{X: 1}, Radius: 0.1, Around: 8, Rings: 2},
	} {
		v, tris := c.Mesh()
		if len(tris) != c.Triangles() {
			t.Errorf("%+v: %d triangles, Triangles says %d", c, len(tris), c.Triangles())
		}
		edges := map[[2]int32]int{}
		vol := 0.0
		for _, tr := range tris {
			for k := range 3 {
				edges[[2]int32{tr[k], tr[(k+1)%3]}]++
			}
			vol += v[tr[0]].Dot(v[tr[1]].Cross(v[tr[2]])) / 6
		}
		for e, n := range edges {
			if n != 1 || edges[[2]int32{e[1], e[0]}] != 1 {
				t.Fatalf("%+v: edge %v used %d times, its reverse %d", c, e, n, edges[[2]int32{e[1], e[0]}])
			}
		}
		l := c.B.Sub(c.A).Len()
		want := math.Pi*c.Radius*c.Radius*l + 4*math.Pi*math.Pow(c.Radius, 3)/3
		if !(vol > 0.8*want && vol < want) {
			t.Errorf("%+v: volume %.6g, want just under the capsule's %.6g", c, vol, want)
		}
	}
}
