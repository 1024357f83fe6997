package mesh_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/contact/contacttest"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/env/envtest"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/narrow"
)

// hull is a convex link: its hull's vertices and faces, and its polytope.
type hull struct {
	verts []geom.Vec3
	tris  [][3]int32
	poly  *narrow.Polytope
}

func makeHull(t testing.TB, pts []geom.Vec3) hull {
	t.Helper()
	h, err := geom.ConvexHull(pts)
	if err != nil {
		t.Fatal(err)
	}
	p, err := narrow.NewPolytope(h.Verts, h.Tris)
	if err != nil {
		t.Fatal(err)
	}
	return hull{h.Verts, h.Tris, p}
}

func boxHull(t testing.TB, half geom.Vec3) hull {
	var pts []geom.Vec3
	for i := range 8 {
		p := half.Mgl()
		for k := range 3 {
			if i&(1<<k) != 0 {
				p[k] = -p[k]
			}
		}
		pts = append(pts, geom.FromMgl(p))
	}
	return makeHull(t, pts)
}

func randomHull(t testing.TB, r *rand.Rand, n int, scale float64) hull {
	pts := make([]geom.Vec3, n)
	ax := geom.Vec3{X: 0.3 + r.Float64(), Y: 0.3 + r.Float64(), Z: 0.3 + r.Float64()}
	for i := range pts {
		pts[i] = geom.Vec3{X: r.NormFloat64() * ax.X, Y: r.NormFloat64() * ax.Y, Z: r.NormFloat64() * ax.Z}.Mul(scale)
	}
	return makeHull(t, pts)
}

func randRotation(r *rand.Rand) geom.Transform {
	q := mgl64.Quat{W: r.NormFloat64(), V: mgl64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}}
	x, _ := geom.FromQuat(q, geom.Vec3{})
	return x
}

// rig runs links against scene as the pipeline does.
func rig(t testing.TB, scene *env.Mesh, band float64, links ...hull) *contacttest.Rig {
	t.Helper()
	var bodies []contacttest.Body
	for _, l := range links {
		bodies = append(bodies, contacttest.Body{Verts: l.verts, Tris: l.tris})
	}
	return contacttest.NewRig(t, bodies, scene, contact.Options{Proximity: band, CountTris: true})
}

// refMeshDepth is the reference for a closed object: the larger of the
// deepest link vertex inside the object (winding number) by its distance
// to the surface, and the deepest object vertex inside the link by its
// distance to the link's surface (its faces' planes); and whether the
// link and the object meet at all (a triangle meets the link, or the link
// is inside).
func refMeshDepth(link hull, x geom.Transform, m *env.Mesh) (depth float64, touch bool) {
	for _, v := range link.verts {
		if w := x.Apply(v); envtest.WindingNumber(m, w) > 0.5 {
			depth, touch = math.Max(depth, envtest.SurfaceDistance(m, w)), true
		}
	}
	inv := x.Inverse()
	var mid geom.Vec3
	for _, v := range link.verts {
		mid = mid.Add(v.Mul(1 / float64(len(link.verts))))
	}
	for _, w := range m.Verts {
		p, in := inv.Apply(w), math.Inf(1)
		for _, t := range link.tris {
			a, b, c := link.verts[t[0]], link.verts[t[1]], link.verts[t[2]]
			n := b.Sub(a).Cross(c.Sub(a)).Normalize()
			if n.Dot(mid.Sub(a)) > 0 {
				n = n.Mul(-1) // outward, whatever the hull's winding
			}
			in = math.Min(in, n.Dot(a)-n.Dot(p))
		}
		depth = math.Max(depth, in)
	}
	if bruteTris(link.poly, x, m) > 0 {
		touch = true
	}
	return math.Max(depth, 0), touch
}

// bruteTris counts the triangles of m the link meets, each by GJK (those
// whose bounding box misses the link's cannot meet it).
func bruteTris(link *narrow.Polytope, x geom.Transform, m *env.Mesh) int {
	a := narrow.Shape{P: link, X: x}
	box := placedBox(link, x)
	n := 0
	for i := range m.Tris {
		t := m.Triangle(i)
		if !triBox(t).Overlaps(box) {
			continue
		}
		if narrow.Intersects(&a, &narrow.Shape{P: &narrow.Polytope{Verts: t[:]}, X: geom.Identity()}) {
			n++
		}
	}
	return n
}

// bruteNear is the distance from the link to the nearest triangle of m,
// each by GJK, and whether any touches.
func bruteNear(link *narrow.Polytope, x geom.Transform, m *env.Mesh) (float64, bool) {
	a := narrow.Shape{P: link, X: x}
	box := placedBox(link, x)
	best := math.Inf(1)
	for i := range m.Tris {
		t := m.Triangle(i)
		if boxDist(triBox(t), box) >= best {
			continue // its box, and so it, is no nearer than the best
		}
		d := narrow.Distance(&a, &narrow.Shape{P: &narrow.Polytope{Verts: t[:]}, X: geom.Identity()}, nil)
		if d.Overlap {
			return 0, true
		}
		best = math.Min(best, d.Distance)
	}
	return best, false
}

// onSurface asserts that p is on m's surface.
func onSurface(t *testing.T, what string, m *env.Mesh, p geom.Vec3) {
	t.Helper()
	if d := envtest.SurfaceDistance(m, p); d > 1e-6 {
		t.Fatalf("%s: point %v is %v m off the surface", what, p, d)
	}
}

// placedBox is the axis-aligned box around the link's vertices at x.
func placedBox(link *narrow.Polytope, x geom.Transform) geom.AABB {
	b := geom.EmptyAABB()
	for _, v := range link.Verts {
		b = b.Extend(x.Apply(v))
	}
	return b
}

// triBox is the axis-aligned box around t.
func triBox(t geom.Triangle) geom.AABB {
	return geom.EmptyAABB().Extend(t[0]).Extend(t[1]).Extend(t[2])
}

// boxDist is the distance between two axis-aligned boxes (0 if they meet).
func boxDist(a, b geom.AABB) float64 {
	d := geom.Vec3{
		X: math.Max(0, math.Max(a.Min.X-b.Max.X, b.Min.X-a.Max.X)),
		Y: math.Max(0, math.Max(a.Min.Y-b.Max.Y, b.Min.Y-a.Max.Y)),
		Z: math.Max(0, math.Max(a.Min.Z-b.Max.Z, b.Min.Z-a.Max.Z)),
	}
	return d.Len()
}

// torusAndWall is a closed torus (R 10 cm, tube 3 cm) at the origin and an
// open 20 cm square wall at x = 0.2 facing it.
func torusAndWall() *env.Mesh {
	torus := env.Torus("torus", geom.Vec3{}, 0.1, 0.03, 40, 20)
	quad := &env.Mesh{Objects: []string{"wall"}, Verts: []geom.Vec3{{X: 0.2, Y: -0.1, Z: -0.1}, {X: 0.2, Y: -0.1, Z: 0.1}, {X: 0.2, Y: 0.1, Z: 0.1}, {X: 0.2, Y: 0.1, Z: -0.1}},
		Tris: [][3]int32{{0, 2, 1}, {0, 3, 2}}, Object: []int32{0, 0}}
	torus.Append(quad)
	torus.DetectConvex()
	return torus
}
