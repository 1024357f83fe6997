package contact

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// PassOver reports whether the frame, the links at poses, has nothing to
// answer, and if so makes its candidates none in place of Traverse, so
// that neither the hierarchy's refit nor its traversal need run: every
// link is proven farther than the band from every object, by the
// object's method (Clear: measured apart in an earlier frame and not
// moved enough since, or the grid) or by the gap between the link's box
// and the object's root box; a whole object is passed over when a sphere
// or an axis-aligned box around the hand's boxes is that far from its
// root box, and, without looking at it, when the tree over the objects
// finds it beyond the band of the hand's boxes (objecttree.go).
// It tries only after a frame with no contact and no near miss (a frame
// with one is rarely followed by one with none), and never with NoAccel.
// The answers are those of Traverse and Solve: no candidates, none.
func (s *Scene) PassOver(poses []geom.Transform) bool {
	s.passed = false
	if s.opt.NoAccel || len(s.Links) == 0 || len(s.Contacts) > 0 || len(s.Near) > 0 {
		return false
	}
	band := s.opt.Proximity
	// A sphere around every link's box.
	var sum geom.Vec3
	for l := range s.Links {
		s.centres[l] = poses[l].Apply(s.Links[l].Box.Center)
		sum = sum.Add(s.centres[l])
	}
	mid := sum.Mul(1 / float64(len(s.Links)))
	r2 := 0.0
	for _, c := range s.centres {
		r2 = max(r2, c.Sub(mid).LenSqr())
	}
	r := (math.Sqrt(r2) + s.boxRadius) * (1 + 1e-12)
	// And a box around them, for the objects the sphere reaches: a flat
	// hand over a floor.
	lo, hi := s.centres[0], s.centres[0]
	for _, c := range s.centres[1:] {
		lo = geom.Vec3{X: min(lo.X, c.X), Y: min(lo.Y, c.Y), Z: min(lo.Z, c.Z)}
		hi = geom.Vec3{X: max(hi.X, c.X), Y: max(hi.Y, c.Y), Z: max(hi.Z, c.Z)}
	}
	hand := geom.OBB{Center: lo.Add(hi).Mul(0.5), Axes: mgl64.Ident3(), Half: hi.Sub(lo).Mul(0.5).Add(geom.Vec3{X: s.boxRadius, Y: s.boxRadius, Z: s.boxRadius}).Mul(1 + 1e-12)}
	for _, o := range s.reached(&hand) { // the others are beyond the band of every link
		obj, root := s.Objects[o], &s.roots[o]
		if reach := r + band; root.DistSqTo(mid) > reach*reach*(1+1e-12) || geom.OBBGap(&hand, root)*(1-1e-12) > band {
			continue // the whole hand is beyond the band of it
		}
		for l := range s.Links {
			lk, x := &s.Links[l], poses[l]
			if obj.Clear(l, x) {
				continue
			}
			box := lk.Box.Transformed(x)
			if gap := geom.OBBGap(&box, root) * (1 - 1e-12); gap > band {
				continue // the link's box is beyond the band of the object's
			}
			return false
		}
	}
	s.cands.List = s.cands.List[:0]
	s.passed = true
	return true
}

// Passed reports whether PassOver passed the last frame over.
func (s *Scene) Passed() bool { return s.passed }
