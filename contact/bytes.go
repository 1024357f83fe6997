package contact

import (
	"unsafe"
)

// A Sized Object reports the bytes it holds of its own: itself, what it
// keeps of the links and its scratch once made, and what its method
// built over it (a grid), but not its surface and tree, which follow its
// triangles. A fork counts only what it does not share.
type Sized interface {
	Bytes() int
}

// SliceBytes returns the bytes of s's backing array.
func SliceBytes[T any](s []T) int {
	var zero T
	return cap(s) * int(unsafe.Sizeof(zero))
}

// Bytes returns the bytes the scene holds for its objects and pairs,
// beyond the triangles and what the Shared prepared of them (surfaces
// and trees): its own per-object and per-candidate buffers, and each
// object's and fork's own (Sized), for the memory a scene of many
// objects costs (docs/scenes.md). Objects of a method that is not Sized
// count nothing of their own.
func (s *Scene) Bytes() int {
	n := int(unsafe.Sizeof(*s)) + SliceBytes(s.Objects) + SliceBytes(s.Method) + SliceBytes(s.traversed) + SliceBytes(s.roots) + SliceBytes(s.every) +
		SliceBytes(s.near) + SliceBytes(s.pairs) + SliceBytes(s.last) + SliceBytes(s.cost) + SliceBytes(s.lastCost) +
		SliceBytes(s.order) + SliceBytes(s.spans) + SliceBytes(s.centres) + SliceBytes(s.workers) +
		SliceBytes(s.cands.List) + SliceBytes(s.Contacts) + SliceBytes(s.Near)
	if t := s.objects; t != nil {
		n += int(unsafe.Sizeof(*t)) + SliceBytes(t.boxes) + SliceBytes(t.nodes) + SliceBytes(t.stack)
	}
	for _, w := range s.workers {
		n += SliceBytes(w.res.Contacts) + SliceBytes(w.res.Near)
		if w.k > 0 { // the first answers with the scene's objects
			n += SliceBytes(w.objs)
		}
		for _, o := range w.objs {
			if sz, ok := o.(Sized); ok {
				n += sz.Bytes()
			}
		}
	}
	return n
}
