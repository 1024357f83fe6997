package handcontact

import (
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/narrow"
)

// Exact appends to contacts and near the answer of brute force: every
// pair of a link of this hand and a link of the other measured cold
// (narrow.Distance, then narrow.Penetration when they touch), no
// hierarchy and no cache: the reference Frame is tested against.
func (d *Detector) Exact(a, b *Pose, contacts []Contact, near []Near) ([]Contact, []Near) {
	if !a.fits(&d.this) || !b.fits(&d.other) {
		return contacts, near
	}
	for la, pa := range d.this.Links {
		sa := narrow.Shape{P: pa, X: a.Links[la]}
		for lb, pb := range d.other.Links {
			sb := narrow.Shape{P: pb, X: b.Links[lb]}
			res := narrow.Distance(&sa, &sb, nil)
			switch {
			case res.Overlap:
				pen := narrow.Penetration(&sa, &sb, &res, nil)
				contacts = append(contacts, Contact{Link: handmodel.Link(la), Other: handmodel.Link(lb), Depth: pen.Depth, Normal: pen.Normal, Point: pen.PointB, Exact: pen.Exact})
			case res.Distance <= d.band:
				near = append(near, Near{Link: handmodel.Link(la), Other: handmodel.Link(lb), Distance: res.Distance, Point: res.PointA, OtherPoint: res.PointB})
			}
		}
	}
	return contacts, near
}
