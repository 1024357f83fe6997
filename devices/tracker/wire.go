package tracker

import (
	"bytes"
	"encoding/binary"
	"math"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// maxDepth bounds the nesting of bundles a datagram may hold, as the OSC
// hub bounds it.
const maxDepth = 4

// bundleTag opens every bundle: "#bundle" and its terminating zero.
var bundleTag = []byte("#bundle\x00")

// message is one OSC message of a datagram, read in place: its address,
// its type tags (after the comma) and its arguments' bytes. Reading it
// allocates nothing.
type message struct {
	addr, tags, args []byte
}

// handler takes the messages of a datagram one at a time.
type handler interface {
	message(m *message)
}

// walk hands each message of datagram b to h, in order: b is a message,
// or a bundle whose elements (messages and bundles, nested at most
// maxDepth deep) it reads by their sizes to its last byte. False if b is
// malformed: an element size that is not positive, not a multiple of 4
// or beyond the end, a message without its type tags, too deep a
// nesting; h may have had the messages before the fault.
func walk(b []byte, depth int, h handler) bool {
	if len(b) > 0 && b[0] == '/' {
		var m message
		if !m.read(b) {
			return false
		}
		h.message(&m)
		return true
	}
	if !bytes.HasPrefix(b, bundleTag) || depth >= maxDepth || len(b) < 16 {
		return false
	}
	for rest := b[16:]; len(rest) > 0; {
		if len(rest) < 4 {
			return false
		}
		size := int32(binary.BigEndian.Uint32(rest))
		rest = rest[4:]
		if size <= 0 || size%4 != 0 || int(size) > len(rest) {
			return false
		}
		if !walk(rest[:size], depth+1, h) {
			return false
		}
		rest = rest[size:]
	}
	return true
}

// read splits a message into its address, type tags and arguments.
func (m *message) read(b []byte) bool {
	addr, rest, ok := str(b)
	if !ok {
		return false
	}
	tags, rest, ok := str(rest)
	if !ok || len(tags) == 0 || tags[0] != ',' {
		return false
	}
	m.addr, m.tags, m.args = addr, tags[1:], rest
	return true
}

// str reads an OSC string: its bytes to the terminating zero, padded to
// a multiple of 4.
func str(b []byte) (s, rest []byte, ok bool) {
	n := bytes.IndexByte(b, 0)
	if n < 0 {
		return nil, nil, false
	}
	end := (n + 4) &^ 3
	if end > len(b) {
		return nil, nil, false
	}
	return b[:n], b[end:], true
}

// args reads a message's arguments by its type tags.
type args struct {
	tags, b []byte
	bad     bool // an argument was not of the type asked for, or cut off
}

func (m *message) arguments() args { return args{tags: m.tags, b: m.args} }

// left returns the number of arguments not yet read.
func (a *args) left() int { return len(a.tags) }

// next checks the next argument is of type t with n bytes.
func (a *args) next(t byte, n int) []byte {
	if a.bad || len(a.tags) == 0 || a.tags[0] != t || len(a.b) < n {
		a.bad = true
		return nil
	}
	v := a.b[:n]
	a.tags, a.b = a.tags[1:], a.b[n:]
	return v
}

// float reads an f argument.
func (a *args) float() float64 {
	if v := a.next('f', 4); v != nil {
		return float64(math.Float32frombits(binary.BigEndian.Uint32(v)))
	}
	return 0
}

// int reads an i argument.
func (a *args) int() int32 {
	if v := a.next('i', 4); v != nil {
		return int32(binary.BigEndian.Uint32(v))
	}
	return 0
}

// string reads an s argument.
func (a *args) string() []byte {
	if a.bad || len(a.tags) == 0 || a.tags[0] != 's' {
		a.bad = true
		return nil
	}
	s, rest, ok := str(a.b)
	if !ok {
		a.bad = true
		return nil
	}
	a.tags, a.b = a.tags[1:], rest
	return s
}

// readPose reads a pose's arguments, f px py pz, f qx qy qz qw, and, if
// extra is not nil, one f more into it; the message has no others. The
// position, carried from the sender's coordinates by back, must be
// finite and bounded and the quaternion one that normalises, as the OSC
// wrist pose's (geom.PoseError): else the message is counted in f and
// dropped (false). It returns the quaternion normalised.
func readPose(a *args, back geom.Convention, extra *float64, f *devices.Faults) (mgl64.Quat, bool) {
	var v [7]float64
	for k := range v {
		v[k] = a.float()
	}
	if extra != nil {
		*extra = a.float()
	}
	if a.bad || a.left() != 0 {
		f.BadFrames++
		return mgl64.Quat{}, false
	}
	q := mgl64.Quat{W: v[6], V: mgl64.Vec3{v[3], v[4], v[5]}}
	if geom.PoseError(q, geom.FromMgl(back.Point(mgl64.Vec3{v[0], v[1], v[2]}))) != nil {
		f.OutOfRange++
		f.BadFrames++
		return mgl64.Quat{}, false
	}
	return q.Scale(1 / q.Len()), true
}
