package experiments

import (
	"fmt"
	"math"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/geom"
)

// LinkShape chooses the links of a generated chain.
type LinkShape struct {
	Length, Thickness float64
	Dented            bool // a boat-hull dent in one side: not convex
}

// ChainBody returns a chain of n identical links, each attached at its
// proximal end to the previous link's distal end: a rounded rod of the
// given length and thickness (so length:thickness 3:1 or 6:1), or with
// Dented the same rod with its middle pressed in on one side, reminiscent
// of the paper's boat-hull links (figure 3c).
func ChainBody(name string, n int, s LinkShape) (*cab.Body, error) {
	if n < 1 || !(s.Length > 0) || !(s.Thickness > 0) {
		return nil, fmt.Errorf("experiments: chain of %d links %+v: want n >= 1 and positive sizes", n, s)
	}
	verts, tris := rodMesh(s)
	b := &cab.Body{Name: name}
	for i := range n {
		l, err := cab.NewLink(fmt.Sprintf("%s%d", name, i), i-1, verts, tris, !s.Dented)
		if err != nil {
			return nil, err
		}
		b.Links = append(b.Links, l)
	}
	return b, nil
}

// rodMesh builds a closed rod along +Y from 0 to Length: rings of 12
// points at 7 stations, capped. With Dented, the +Z side of the middle
// stations is pushed in by 60% of the radius.
func rodMesh(s LinkShape) ([]geom.Vec3, [][3]int32) {
	const ring = 12
	r := s.Thickness / 2
	stations := []struct{ y, r float64 }{
		{0.05 * s.Length, 0.55 * r}, {0.15 * s.Length, 0.95 * r}, {0.3 * s.Length, r}, {0.5 * s.Length, r},
		{0.7 * s.Length, r}, {0.85 * s.Length, 0.95 * r}, {0.95 * s.Length, 0.55 * r},
	}
	var verts []geom.Vec3
	for si, st := range stations {
		for k := range ring {
			a := 2 * math.Pi * float64(k) / ring
			x, z := st.r*math.Cos(a), st.r*math.Sin(a)
			if s.Dented && si >= 2 && si <= 4 && z > 0 {
				z *= 0.4 - 0.2*float64(1-abs(si-3))
			}
			verts = append(verts, geom.Vec3{X: x, Y: st.y, Z: z})
		}
	}
	bottom, top := int32(len(verts)), int32(len(verts)+1)
	verts = append(verts, geom.Vec3{}, geom.Vec3{Y: s.Length})
	var tris [][3]int32
	at := func(si, k int) int32 { return int32(si*ring + (k % ring)) }
	for si := 0; si+1 < len(stations); si++ {
		for k := range ring {
			a, b, c, d := at(si, k), at(si, k+1), at(si+1, k), at(si+1, k+1)
			tris = append(tris, [3]int32{a, c, b}, [3]int32{b, c, d})
		}
	}
	last := len(stations) - 1
	for k := range ring {
		tris = append(tris, [3]int32{bottom, at(0, k), at(0, k+1)}, [3]int32{top, at(last, k+1), at(last, k)})
	}
	return verts, tris
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
