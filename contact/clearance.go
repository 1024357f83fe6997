package contact

import (
	"math"

	"github.com/gloved/gloved/geom"
)

// Clearance is what a contact method knows of a (link, object) pair
// between frames: with the link at pose X, no point of the object was
// nearer than Dist (0: nothing known).
type Clearance struct {
	X    geom.Transform
	Dist float64
}

// Holds reports whether link l, now at pose x, is still farther than band
// from the object: it has moved less than Dist less the band since X.
func (c Clearance) Holds(l *Link, x geom.Transform, band float64) bool {
	if c.Dist <= 0 {
		return false
	}
	room := c.Dist - band
	// First with sums of magnitudes, which bound the norms from above
	// without a square root; only when that is not enough, the norms.
	d := x.T.Sub(c.X.T)
	t, f := math.Abs(d.X)+math.Abs(d.Y)+math.Abs(d.Z), 0.0
	for i := range 9 {
		f += math.Abs(x.R[i] - c.X.R[i])
	}
	if (t+f*l.Poly.Size())*(1+1e-12) < room {
		return true
	}
	return l.Moved(c.X, x) < room
}

// Moved bounds how far any point of the link has gone from pose a to
// pose b: the origin's move plus the rotations' difference (its Frobenius
// norm, which bounds how far it moves any unit vector) times the link's
// radius.
func (l *Link) Moved(a, b geom.Transform) float64 {
	// |(Rb - Ra)p| <= ||Rb - Ra||_F |p|, element by element: no
	// cancellation, where the angle from the trace loses small turns.
	f := 0.0
	for i := range 9 {
		d := b.R[i] - a.R[i]
		f += d * d
	}
	return (b.T.Sub(a.T).Len() + math.Sqrt(f)*l.Poly.Size()) * (1 + 1e-12)
}
