package env

import (
	"math"
	"math/rand/v2"

	"github.com/gloved/gloved/geom"
)

// Sphere returns a geodesic sphere: an octahedron whose faces are each cut
// into 4^level triangles, projected onto the sphere, 8·4^level triangles in
// all (level 6: 32768, the size of the paper's section 6 spheres). The
// object is named name.
func Sphere(name string, center geom.Vec3, radius float64, level int) *Mesh {
	m := &Mesh{}
	obj := m.addObject(name)
	n := 1 << level
	octa := [6]geom.Vec3{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}, {Z: 1}, {Z: -1}}
	faces := [8][3]int{{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4}, {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}}
	index := map[[3]int64]int32{}
	vert := func(p geom.Vec3) int32 {
		// Weld shared edge vertices by their exact grid position.
		s := float64(2 * n)
		key := [3]int64{int64(math.Round(p.X * s)), int64(math.Round(p.Y * s)), int64(math.Round(p.Z * s))}
		if i, ok := index[key]; ok {
			return i
		}
		i := int32(len(m.Verts))
		index[key] = i
		m.Verts = append(m.Verts, center.Add(p.Normalize().Mul(radius)))
		return i
	}
	for _, f := range faces {
		a, b, c := octa[f[0]], octa[f[1]], octa[f[2]]
		at := func(i, j int) int32 { // point i steps toward b, j toward c
			u, v := float64(i)/float64(n), float64(j)/float64(n)
			return vert(a.Mul(1 - u - v).Add(b.Mul(u)).Add(c.Mul(v)))
		}
		for i := range n {
			for j := range n - i {
				m.Tris = append(m.Tris, [3]int32{at(i, j), at(i+1, j), at(i, j+1)})
				m.Object = append(m.Object, obj)
				if i+j+1 < n {
					m.Tris = append(m.Tris, [3]int32{at(i+1, j), at(i+1, j+1), at(i, j+1)})
					m.Object = append(m.Object, obj)
				}
			}
		}
	}
	return m
}

// Soup returns n random triangles in the cube [-size, size]^3 with edges up
// to maxEdge long, seeded: a test and benchmark workload with no structure.
func Soup(name string, r *rand.Rand, n int, size, maxEdge float64) *Mesh {
	m := &Mesh{}
	obj := m.addObject(name)
	rv := func(s float64) geom.Vec3 {
		return geom.Vec3{X: (2*r.Float64() - 1) * s, Y: (2*r.Float64() - 1) * s, Z: (2*r.Float64() - 1) * s}
	}
	for range n {
		c := rv(size)
		base := int32(len(m.Verts))
		for range 3 {
			m.Verts = append(m.Verts, c.Add(rv(maxEdge/2)))
		}
		m.Tris = append(m.Tris, [3]int32{base, base + 1, base + 2})
		m.Object = append(m.Object, obj)
	}
	return m
}

// Box returns the 12 triangles of an axis-aligned box with the given center
// and half-extents, as one object.
func Box(name string, center, half geom.Vec3) *Mesh {
	m := &Mesh{}
	obj := m.addObject(name)
	for i := range 8 {
		s := [3]float64{-1, -1, -1}
		for k := range 3 {
			if i&(1<<k) != 0 {
				s[k] = 1
			}
		}
		m.Verts = append(m.Verts, center.Add(geom.Vec3{X: s[0] * half.X, Y: s[1] * half.Y, Z: s[2] * half.Z}))
	}
	// Corner i has bit k set when it is on the + side of axis k; faces wind
	// outward.
	quads := [6][4]int32{{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}}
	for _, q := range quads {
		m.Tris = append(m.Tris, [3]int32{q[0], q[1], q[2]}, [3]int32{q[0], q[2], q[3]})
		m.Object = append(m.Object, obj, obj)
	}
	return m
}

// Torus returns a closed torus around the y axis through center: the tube
// of radius r swept around a circle of radius big, nu segments around the
// axis and nv around the tube, 2·nu·nv triangles wound outward. It is the
// simplest closed object that is not convex.
func Torus(name string, center geom.Vec3, big, r float64, nu, nv int) *Mesh {
	m := &Mesh{}
	obj := m.addObject(name)
	for i := range nu {
		u := 2 * math.Pi * float64(i) / float64(nu)
		for j := range nv {
			v := 2 * math.Pi * float64(j) / float64(nv)
			rho := big + r*math.Cos(v)
			m.Verts = append(m.Verts, center.Add(geom.Vec3{X: rho * math.Cos(u), Y: r * math.Sin(v), Z: -rho * math.Sin(u)}))
		}
	}
	at := func(i, j int) int32 { return int32((i%nu)*nv + j%nv) }
	for i := range nu {
		for j := range nv {
			a, b, c, d := at(i, j), at(i+1, j), at(i+1, j+1), at(i, j+1)
			m.Tris = append(m.Tris, [3]int32{a, b, c}, [3]int32{a, c, d})
			m.Object = append(m.Object, obj, obj)
		}
	}
	return m
}

// Terrain returns a 1 m square height field over x, z in [-0.5, 0.5]:
// one object of 2·n² triangles, its height y = f(x, z), wound up.
func Terrain(name string, n int, f func(x, z float64) float64) *Mesh {
	m := &Mesh{Objects: []string{name}}
	for i := 0; i <= n; i++ {
		for j := 0; j <= n; j++ {
			x, z := -0.5+float64(i)/float64(n), -0.5+float64(j)/float64(n)
			m.Verts = append(m.Verts, geom.Vec3{X: x, Y: f(x, z), Z: z})
		}
	}
	at := func(i, j int) int32 { return int32(i*(n+1) + j) }
	for i := range n {
		for j := range n {
			m.Tris = append(m.Tris, [3]int32{at(i, j), at(i, j+1), at(i+1, j+1)}, [3]int32{at(i, j), at(i+1, j+1), at(i+1, j)})
			m.Object = append(m.Object, 0, 0)
		}
	}
	return m
}
