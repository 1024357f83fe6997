package mesh

import (
	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/geom"
)

// SetRaiseBudget sets how many boxes and leaves the search that raises a
// clearance may measure, and returns what restores it.
func SetRaiseBudget(n int) (restore func()) {
	old := raiseBudget
	raiseBudget = n
	return func() { raiseBudget = old }
}

// ClearanceOf is what o keeps of link l: its clearance.
func (o *Object) ClearanceOf(l int) contact.Clearance {
	if o.clear == nil { // no link has come near it
		return contact.Clearance{}
	}
	return o.clear[l]
}

// VertClearOf is what o keeps of link l's vertex i: where it was proven
// outside, and how far from the surface (0: nothing kept).
func (o *Object) VertClearOf(l, i int) (at geom.Vec3, dist float64) {
	vc := o.vertClears(l)
	if vc == nil {
		return geom.Vec3{}, 0
	}
	return vc[i].At, vc[i].Dist
}
