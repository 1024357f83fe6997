package osc

import (
	"encoding/binary"
	"fmt"
	"testing"

	goosc "github.com/hypebeast/go-osc/osc"
)

// wristMessage is a wrist pose for the right hand at (x, 1, 0).
func wristMessage(x float32) *goosc.Message {
	return goosc.NewMessage("/gloved/right/wrist", x, float32(1), float32(0), float32(0), float32(0), float32(0), float32(1))
}

// padded returns a bundle of n unknown messages (each 20 bytes with its
// size) and then ms.
func padded(t testing.TB, n int, ms ...*goosc.Message) []byte {
	var all []*goosc.Message
	for range n {
		all = append(all, goosc.NewMessage("/gloved/pad"))
	}
	return bundle(t, append(all, ms...)...)
}

// TestDecodeReadsTheWholeDatagram: a bundle of 60 kB is read to its last
// element, in order, each message with its size on the wire.
func TestDecodeReadsTheWholeDatagram(t *testing.T) {
	b := padded(t, 3000, wristMessage(0.5))
	if len(b) < 60000 {
		t.Fatalf("the bundle has %d bytes, want over 60000", len(b))
	}
	reqs, err := decode(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(reqs) != 3001 || reqs[3000].m.Address != "/gloved/right/wrist" {
		t.Fatalf("%d messages, the last %v; want 3001, the wrist pose last", len(reqs), reqs[len(reqs)-1].m)
	}
	total := bundleHeader
	for _, r := range reqs {
		total += 4 + r.size
	}
	if total != len(b) || reqs[0].size != 16 {
		t.Errorf("sizes add up to %d of %d bytes, the first %d; want all of them, 16", total, len(b), reqs[0].size)
	}
}

// TestDecodeRefusesABundleWithABadElement: an element size that is
// negative, zero, unaligned or beyond the end, bytes after the last
// element, an element that does not decode and nesting deeper than
// maxBundleDepth make the whole bundle malformed: none of its messages
// comes back.
func TestDecodeRefusesABundleWithABadElement(t *testing.T) {
	good := bundle(t, wristMessage(0.1), wristMessage(0.2))
	first := bundleHeader // the first element's size
	second := first + 4 + int(binary.BigEndian.Uint32(good[first:]))
	setSize := func(at int, v int32) []byte {
		b := append([]byte(nil), good...)
		binary.BigEndian.PutUint32(b[at:], uint32(v))
		return b
	}
	nested := wristMessage(0.3)
	var deep []byte
	for range maxBundleDepth + 1 {
		deep = wrapBundle(deep, nested)
		nested = nil
	}
	tests := []struct {
		name string
		b    []byte
	}{
		{"size -100 first", setSize(first, -100)},
		{"size -100 second", setSize(second, -100)},
		{"size 0", setSize(second, 0)},
		{"size not a multiple of 4", setSize(second, 42)},
		{"size beyond the end", setSize(second, 4096)},
		{"bytes after the last element", append(append([]byte(nil), good...), 0, 0)},
		{"an element that does not decode", append(append([]byte(nil), good...), 0, 0, 0, 8, ',', 'f', 0, 0, 0, 0, 0, 0)},
		{"no time tag", []byte("#bundle\x00\x00\x00")},
		{fmt.Sprintf("%d bundles deep", maxBundleDepth+1), deep},
	}
	for _, tc := range tests {
		reqs, err := decode(tc.b, []request{{size: 7}})
		if err == nil || len(reqs) != 1 || reqs[0].size != 7 {
			t.Errorf("%s: %d messages, %v; want the bundle refused whole", tc.name, len(reqs), err)
		}
	}
	if reqs, err := decode(good, nil); err != nil || len(reqs) != 2 {
		t.Fatalf("the bundle as made: %d messages, %v", len(reqs), err)
	}
	shallow := wrapBundle(nil, wristMessage(0.3))
	for range maxBundleDepth - 1 {
		shallow = wrapBundle(shallow, nil)
	}
	if reqs, err := decode(shallow, nil); err != nil || len(reqs) != 1 {
		t.Errorf("%d bundles deep: %d messages, %v; want the pose", maxBundleDepth, len(reqs), err)
	}
}

// wrapBundle returns a bundle holding the encoded packet inner (if any)
// and m (if any).
func wrapBundle(inner []byte, m *goosc.Message) []byte {
	b := append([]byte(nil), bundleTag...)
	b = append(b, 0, 0, 0, 0, 0, 0, 0, 1)
	add := func(e []byte) {
		b = binary.BigEndian.AppendUint32(b, uint32(len(e)))
		b = append(b, e...)
	}
	if inner != nil {
		add(inner)
	}
	if m != nil {
		e, _ := m.MarshalBinary()
		add(e)
	}
	return b
}

// FuzzDecode: decode never panics; a datagram it takes holds its
// messages in at most its own bytes (so replies no larger than their
// requests add up to no more than the datagram), and one it refuses
// yields nothing.
func FuzzDecode(f *testing.F) {
	f.Add(padded(f, 3, wristMessage(0.5)))
	f.Add(wrapBundle(wrapBundle(nil, wristMessage(1)), wristMessage(2)))
	f.Add(packet(f, "/gloved/subscribe", "192.0.2.7", int32(9000)))
	f.Fuzz(func(t *testing.T, b []byte) {
		reqs, err := decode(b, nil)
		if err != nil {
			if len(reqs) != 0 {
				t.Fatalf("refused (%v) with %d messages", err, len(reqs))
			}
			return
		}
		total := 0
		for _, r := range reqs {
			total += r.size
		}
		if total > len(b) {
			t.Fatalf("messages of %d bytes in a datagram of %d", total, len(b))
		}
	})
}
