package env

import (
	"math/rand/v2"
	"testing"

	"github.com/gloved/gloved/geom"
)

// weldedByCorners prepares object 0 of m as NewSurface does, but keeps
// every corner's welded vertex (weldCorners) whatever its spread.
func weldedByCorners(t *testing.T, m *Mesh) *Surface {
	t.Helper()
	sub, orig := m.subsetOf(m.ObjectTris(0))
	tree, err := Build(sub, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := &Surface{Tree: tree, Tris: orig, flip: 1, tris: sub.Tris}
	s.weldCorners(sub)
	s.link()
	s.normals(sub)
	return s
}

// TestWeldingByVertexAndByCornerAgree: an object's corners welded through
// a map of its vertex span (4 bytes a vertex, what a compact object gets)
// and kept per corner (12 bytes a triangle, what an object spread among
// others' vertices gets) give the same welded vertex at every corner, the
// same neighbours, pseudonormals and closedness, on closed, seamed,
// inward, open and soup objects.
func TestWeldingByVertexAndByCornerAgree(t *testing.T) {
	seamed := Box("b", geom.Vec3{}, geom.Vec3{X: 1, Y: 2, Z: 3})
	sep := &Mesh{Objects: seamed.Objects}
	for i := range seamed.Tris {
		tri := seamed.Triangle(i)
		b := int32(len(sep.Verts))
		sep.Verts = append(sep.Verts, tri[0], tri[1], tri[2])
		sep.Tris = append(sep.Tris, [3]int32{b, b + 1, b + 2})
		sep.Object = append(sep.Object, 0)
	}
	open := Sphere("s", geom.Vec3{}, 1, 3)
	open.Tris, open.Object = open.Tris[3:], open.Object[3:]
	for name, m := range map[string]*Mesh{
		"sphere":      Sphere("s", geom.Vec3{X: 1}, 1, 3),
		"torus":       Torus("t", geom.Vec3{}, 1, 0.3, 24, 12),
		"seamed box":  sep,
		"open sphere": open,
		"soup":        Soup("s", rand.New(rand.NewPCG(1, 2)), 50, 1, 0.5),
		"terrain":     Terrain("g", 12, func(x, z float64) float64 { return 0.1 * x * z }),
	} {
		byVertex, err := NewSurface(m, 0)
		if err != nil {
			t.Fatal(err)
		}
		if byVertex.wid == nil {
			t.Fatalf("%s: a compact object was welded by corner", name)
		}
		byCorner := weldedByCorners(t, m)
		if byVertex.Closed != byCorner.Closed || len(byVertex.vertN) != len(byCorner.vertN) {
			t.Fatalf("%s: closed %v and %v, %d and %d welded vertices", name, byVertex.Closed, byCorner.Closed, len(byVertex.vertN), len(byCorner.vertN))
		}
		for i := range m.Tris {
			for k := range 3 {
				a, b := byVertex.corner(i, k), byCorner.corner(i, k)
				if a != b || byVertex.vertN[a] != byCorner.vertN[b] || byVertex.nb[i][k] != byCorner.nb[i][k] {
					t.Fatalf("%s: triangle %d corner %d: vertex %d and %d, normal %v and %v, neighbour %d and %d", name, i, k, a, b, byVertex.vertN[a], byCorner.vertN[b], byVertex.nb[i][k], byCorner.nb[i][k])
				}
			}
		}
	}
}

// TestAnObjectSpreadAmongOthersVerticesIsWeldedByCorner: a small object
// whose vertices lie at both ends of a scene's vertex array keeps its
// corners' welded vertices (12 bytes a triangle) rather than a map of the
// whole span, and is still closed.
func TestAnObjectSpreadAmongOthersVerticesIsWeldedByCorner(t *testing.T) {
	box := Box("box", geom.Vec3{}, geom.Vec3{X: 1, Y: 1, Z: 1})
	m := &Mesh{Objects: []string{"box", "ball"}}
	m.Verts = append(m.Verts, box.Verts[:4]...)
	ball := Sphere("ball", geom.Vec3{X: 5}, 1, 4)
	m.Verts = append(m.Verts, ball.Verts...)
	far := int32(len(m.Verts))
	m.Verts = append(m.Verts, box.Verts[4:]...)
	for _, tri := range box.Tris {
		for k, v := range tri {
			if v >= 4 {
				tri[k] = far + v - 4
			}
		}
		m.Tris = append(m.Tris, tri)
		m.Object = append(m.Object, 0)
	}
	for _, tri := range ball.Tris {
		m.Tris = append(m.Tris, [3]int32{tri[0] + 4, tri[1] + 4, tri[2] + 4})
		m.Object = append(m.Object, 1)
	}
	s, err := NewSurface(m, 0)
	if err != nil {
		t.Fatal(err)
	}
	if s.wid != nil || s.corn == nil {
		t.Fatalf("a box spread over %d vertices was welded by vertex", len(m.Verts))
	}
	if !s.Closed {
		t.Errorf("the spread box is not closed")
	}
}
