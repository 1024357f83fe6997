package experiments

import (
	"math"

	"github.com/gloved/gloved/geom"
)

// Capsule is a segment A-B swept by a sphere of Radius, meshed with
// Around vertices on each ring, Rings rings on each hemisphere (the last
// on its equator) and Bands bands along the segment between them.
type Capsule struct {
	A, B                 geom.Vec3
	Radius               float64
	Around, Rings, Bands int
}

// Triangles returns the number of triangles Mesh makes: a fan at each
// pole and 2·Rings-2+Bands bands of 2·Around triangles.
func (c Capsule) Triangles() int { return 2 * c.Around * (2*c.Rings - 1 + max(c.Bands, 1)) }

// Mesh returns the capsule as a closed triangle mesh, wound outward:
// each ring's vertices lie on the sphere about its end (a polygonal
// capsule inscribed in the true one).
func (c Capsule) Mesh() (verts []geom.Vec3, tris [][3]int32) {
	d := c.B.Sub(c.A).Normalize()
	e1, e2 := perpendicular(d)
	n, h := c.Around, c.Rings
	nb := max(c.Bands, 1)
	verts = append(verts, c.A.Sub(d.Mul(c.Radius))) // the pole below A
	// Rings 0..h-1 about A, from the pole up to the equator; rings
	// h..h+nb-1 along the segment, the first at B's equator; then
	// B's rings up.
	rings := 2*h + nb - 1
	for i := range rings {
		var centre geom.Vec3
		var lat float64
		switch {
		case i < h:
			centre, lat = c.A, -math.Pi/2+float64(i+1)*math.Pi/2/float64(h)
		case i < h+nb-1:
			centre = c.A.Add(c.B.Sub(c.A).Mul(float64(i-h+1) / float64(nb)))
		default:
			centre, lat = c.B, float64(i-h-nb+1)*math.Pi/2/float64(h)
		}
		s, co := math.Sincos(lat)
		for k := range n {
			sa, ca := math.Sincos(2 * math.Pi * float64(k) / float64(n))
			radial := e1.Mul(ca).Add(e2.Mul(sa))
			verts = append(verts, centre.Add(radial.Mul(c.Radius*co)).Add(d.Mul(c.Radius*s)))
		}
	}
	top := int32(len(verts))
	verts = append(verts, c.B.Add(d.Mul(c.Radius)))
	ring := func(i, k int) int32 { return int32(1 + i*n + (k+n)%n) }
	for k := range n {
		tris = append(tris, [3]int32{0, ring(0, k+1), ring(0, k)})
		tris = append(tris, [3]int32{top, ring(rings-1, k), ring(rings-1, k+1)})
	}
	for i := range rings - 1 {
		for k := range n {
			a, b := ring(i, k), ring(i, k+1)
			c, e := ring(i+1, k), ring(i+1, k+1)
			tris = append(tris, [3]int32{a, b, e}, [3]int32{a, e, c})
		}
	}
	return verts, tris
}

// perpendicular returns two unit directions completing unit d to a
// right-handed frame (e1, e2, d).
func perpendicular(d geom.Vec3) (e1, e2 geom.Vec3) {
	ref := geom.Vec3{X: 1}
	if math.Abs(d.X) > 0.9 {
		ref = geom.Vec3{Y: 1}
	}
	e1 = ref.Sub(d.Mul(ref.Dot(d))).Normalize()
	return e1, d.Cross(e1)
}
