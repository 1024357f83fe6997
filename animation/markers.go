package animation

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/geom"
)

// MarkerName names contact marker i, as the file's node is named:
// contact-0, contact-1... (not "contact.0": three.js strips the dots from
// node names, '.' being a separator of its animation paths, and Blender
// reads ".000" as its own suffix for duplicates).
func MarkerName(i int) string { return fmt.Sprintf("contact-%d", i) }

// markers keeps the contact markers' tracks. A marker in use stands on
// its contact's point, +Y turned to the contact's normal, and is stretched
// along +Y to the contact's depth (scale depth/MarkerLength): its tip is
// where the link would be pushed out to. Its width stays MarkerRadius, so
// a contact of no depth shows as a disc. A marker not in use is scaled
// to 0.
//
// The markers are a pool of nodes that grows to
// the most contacts of any frame. A contact keeps the marker it had the
// frame before while its link and object stay in contact, so a marker
// follows one contact for as long as it lasts; a new contact takes the
// lowest marker free this frame. A marker only grows the pool when every
// marker below it is in use, so the pool is never larger than the most
// contacts of a frame.
type markers struct {
	tracks []track
	held   []pair // the contact each marker marked the frame before (none: {-1, -1})
	now    []pair // scratch: the contact each marker marks this frame
	slot   []int  // scratch: each contact's marker this frame
}

// pair is a contact's link and object.
type pair struct{ link, object int }

var none = pair{-1, -1}

// add keys every marker for frame number frame, whose contacts are cs.
func (m *markers) add(frame int, cs []contact.Contact) {
	m.now = m.now[:0]
	for range m.held {
		m.now = append(m.now, none)
	}
	slot := m.slot[:0]
	for _, c := range cs {
		slot = append(slot, m.claim(pair{c.Link, c.Object}, -1))
	}
	m.slot = slot
	for i, c := range cs {
		if slot[i] < 0 {
			slot[i] = m.claim(pair{c.Link, c.Object}, frame)
		}
	}
	for i, c := range cs {
		k := &m.tracks[slot[i]]
		k.add(c.Point.Mgl(), fromY(c.Normal.Mgl()), mgl64.Vec3{1, max(c.Depth, 0) / MarkerLength, 1})
	}
	for s := range m.tracks {
		if m.now[s] == none {
			m.hide(s)
		}
	}
	m.held, m.now = m.now, m.held
}

// claim returns the marker for contact p at frame number frame: for frame
// -1, the one that marked it the frame before (or -1); else the lowest
// free one, growing the pool if every marker is in use.
func (m *markers) claim(p pair, frame int) int {
	held := frame < 0
	for s := range m.now {
		if m.now[s] == none && (!held || m.held[s] == p) {
			m.now[s] = p
			return s
		}
	}
	if held {
		return -1
	}
	m.grow(frame)
	m.now[len(m.now)-1] = p
	return len(m.now) - 1
}

// grow adds a marker, hidden in the frames before frame number frames.
func (m *markers) grow(frames int) {
	k := track{scaled: true}
	for range frames {
		k.add(mgl64.Vec3{}, mgl64.QuatIdent(), mgl64.Vec3{})
	}
	m.tracks = append(m.tracks, k)
	m.held = append(m.held, none)
	m.now = append(m.now, none)
}

// hide keys marker s unused this frame: scale 0, where it last was.
func (m *markers) hide(s int) {
	k := &m.tracks[s]
	t, q := mgl64.Vec3{}, mgl64.QuatIdent()
	if n := len(k.t); n > 0 {
		t, q = mgl64.Vec3(f64(k.t[n-1])), k.rot.Last()
	}
	k.add(t, q, mgl64.Vec3{})
}

// fromY is the rotation taking +Y to n by the shortest arc; a half turn
// about X for n = -Y, and no turn for an n that is not a direction.
func fromY(n mgl64.Vec3) mgl64.Quat {
	l := n.Len()
	if !(l > 1e-12) || !geom.Finite3(n) {
		return mgl64.QuatIdent()
	}
	n = n.Mul(1 / l)
	if 1+n[1] < 1e-12 {
		return mgl64.Quat{W: 0, V: mgl64.Vec3{1, 0, 0}}
	}
	// (1 + y·n, y×n) normalised is the half-angle quaternion of the turn.
	q := mgl64.Quat{W: 1 + n[1], V: mgl64.Vec3{n[2], 0, -n[0]}}
	return q.Scale(1 / math.Sqrt(q.Dot(q)))
}
