package osc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	goosc "github.com/hypebeast/go-osc/osc"
)

// bundleTag opens every bundle: "#bundle" and its terminating zero.
var bundleTag = []byte("#bundle\x00")

// bundleHeader is the tag and the 8-byte time tag before the elements.
const bundleHeader = 16

// request is one message of a datagram and its size on the wire: what a
// reply to it may not exceed while its sender is unproven.
type request struct {
	m    *goosc.Message
	size int
}

// decode appends the messages of datagram b to out, in order: b is a
// message, or a bundle whose elements (messages and bundles, nested at
// most maxBundleDepth deep) it reads by their sizes, to the datagram's
// last byte. go-osc reads a bundle only as far as its 4 KB buffer and
// skips over element sizes; here a bundle with an element size that is
// not positive, not a multiple of 4 or beyond its end, an element that
// does not decode or too deep a nesting is malformed as a whole, and out
// comes back as it was: none of its messages is applied.
func decode(b []byte, out []request) ([]request, error) {
	n := len(out)
	out, err := decodeAt(b, 0, out)
	if err != nil {
		clear(out[n:])
		return out[:n], err
	}
	return out, nil
}

func decodeAt(b []byte, depth int, out []request) ([]request, error) {
	if len(b) > 0 && b[0] == '/' {
		p, err := parse(b)
		if err != nil {
			return out, err
		}
		m, ok := p.(*goosc.Message)
		if !ok {
			return out, errors.New("osc: a message that does not decode")
		}
		return append(out, request{m, len(b)}), nil
	}
	if !bytes.HasPrefix(b, bundleTag) {
		return out, errors.New("osc: neither a message nor a bundle")
	}
	if depth >= maxBundleDepth {
		return out, fmt.Errorf("osc: bundles nested more than %d deep", maxBundleDepth)
	}
	if len(b) < bundleHeader {
		return out, errors.New("osc: a bundle without its time tag")
	}
	for rest := b[bundleHeader:]; len(rest) > 0; {
		if len(rest) < 4 {
			return out, fmt.Errorf("osc: %d bytes after a bundle's last element", len(rest))
		}
		size := int32(binary.BigEndian.Uint32(rest))
		rest = rest[4:]
		if size <= 0 || size%4 != 0 || int(size) > len(rest) {
			return out, fmt.Errorf("osc: a bundle element of size %d with %d bytes left", size, len(rest))
		}
		var err error
		if out, err = decodeAt(rest[:size], depth+1, out); err != nil {
			return out, err
		}
		rest = rest[size:]
	}
	return out, nil
}
