package mesh

import (
	"unsafe"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/narrow"
)

// kept is what an object keeps of each link of the body from frame to
// frame: the GJK warm start, the last nearest triangle of each of its
// vertices (maxVerts each) and of the link, its vertex clearances, its
// clearance, and what its last nearest-triangle search left. Ready makes
// it the first time a link comes near the object, so that a scene of
// thousands of small objects keeps it only for those the hand has come
// near: about 0.9 KiB a link (2.2 KiB with a solid's vertex clearances),
// 15 KiB an object for a hand's 16 links, where each object made its own
// at load (16,000 one-triangle objects took 205 MB). The object's forks
// share it.
type kept struct {
	caches   []narrow.Cache
	hints    []int32
	vclear   []vertClear // per link vertex, where kept (keepsVertClears): where it was proven outside
	nearHint []int32
	clear    []contact.Clearance
	cuts     []cut
}

var _ contact.Lazy = (*Object)(nil)

// Ready makes what o keeps of the links, if no link has come near it
// before (contact.Lazy). The scene calls it, and Clear, in the part of a
// frame that runs alone, before any candidate of o is answered: its forks
// find it made.
func (o *Object) Ready() {
	k := o.kept
	if k.caches != nil {
		return
	}
	n := len(o.links)
	k.caches, k.clear, k.cuts = make([]narrow.Cache, n), make([]contact.Clearance, n), make([]cut, n)
	k.hints, k.nearHint = make([]int32, n*o.maxVerts), make([]int32, n)
	for i := range k.hints {
		k.hints[i] = -1
	}
	for i := range k.nearHint {
		k.nearHint[i] = -1
	}
	if o.keepsVertClears() {
		k.vclear = make([]vertClear, n*o.maxVerts)
	}
}

// Bytes returns the bytes o holds of its own (contact.Sized): itself,
// its scratch once made, and unless a fork, what it keeps of the links
// and its grid.
func (o *Object) Bytes() int {
	n := int(unsafe.Sizeof(*o))
	if s := o.scratch; s != nil {
		n += int(unsafe.Sizeof(*s)) + contact.SliceBytes(s.order) + contact.SliceBytes(s.provenOut) +
			contact.SliceBytes(s.pending) + contact.SliceBytes(s.stamp) + s.boxes.Bytes() + s.nearest.Bytes() + s.count.Bytes()
	}
	if o.forked {
		return n
	}
	k := o.kept
	n += int(unsafe.Sizeof(*k)) + contact.SliceBytes(k.caches) + contact.SliceBytes(k.hints) + contact.SliceBytes(k.vclear) +
		contact.SliceBytes(k.nearHint) + contact.SliceBytes(k.clear) + contact.SliceBytes(k.cuts)
	for _, c := range k.cuts {
		n += contact.SliceBytes(c.refs) + contact.SliceBytes(c.spare)
	}
	if o.grid != nil {
		n += o.grid.Bytes()
	}
	return n
}
