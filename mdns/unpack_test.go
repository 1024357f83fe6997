package mdns

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/miekg/dns"
)

// withBadNSEC is a response of VRChat's records plus an NSEC record whose
// type bitmap holds an empty block, as python-zeroconf 0.47 sends them.
func withBadNSEC(t testing.TB) []byte {
	t.Helper()
	m := resp(t, vrchat...)
	b, err := m.Pack()
	if err != nil {
		t.Fatal(err)
	}
	// owner name: the root; type NSEC, class IN, TTL 120, 3 bytes of data:
	// next name the root, window 0, bitmap length 0.
	b = append(b, 0, 0, 47, 0, 1, 0, 0, 0, 120, 0, 3, 0, 0, 0)
	binary.BigEndian.PutUint16(b[10:], binary.BigEndian.Uint16(b[10:])+1) // one more additional record
	if new(dns.Msg).Unpack(b) == nil {
		t.Fatal("miekg/dns reads the bad NSEC now: this test no longer shows the shortfall")
	}
	return b
}

// TestUnpackSkipsWhatItCannotRead: a message with one unreadable record
// keeps the others (and the browser finds the instance); a message cut
// short is an error, never a panic.
func TestUnpackSkipsWhatItCannotRead(t *testing.T) {
	b := withBadNSEC(t)
	m, skipped, err := unpack(b)
	if err != nil || skipped != 1 || len(m.Answer) != 4 || !m.Response {
		t.Fatalf("%v: skipped %d, %v", err, skipped, m)
	}
	br, ev := newTestBrowser(t)
	br.handle(m, from(&eth, "192.0.2.7:5353"), t0)
	if len(ev.found) != 1 {
		t.Errorf("found %v", ev.found)
	}
	for n := range len(b) {
		unpack(b[:n])
	}
}

// FuzzReceive: any datagram, from this host or another, decodes or is an
// error, never a panic, and an announced responder and a browser take
// whatever decodes without one either.
func FuzzReceive(f *testing.F) {
	f.Add(withBadNSEC(f), false)
	for _, m := range []*dns.Msg{query("_osc._udp.local.", dns.TypePTR), query("gloved-lab._osc._udp.local.", dns.TypeANY), resp(f, vrchat...)} {
		b, _ := m.Pack()
		f.Add(b, true)
	}
	f.Fuzz(func(t *testing.T, b []byte, local bool) {
		m, _, err := unpack(b)
		if err != nil {
			return
		}
		stats := new(Stats)
		r := newResponder("gloved-lab", oscquery("0.0.0.0"), []*Interface{&lo, &eth}, t0, stats)
		_, now := announce(t, r, t0)
		br, _ := newTestBrowser(t)
		rcv := from(&eth, "192.0.2.7:5353")
		if local {
			rcv = from(&lo, "127.0.0.1:40000")
		}
		for _, o := range r.handle(m, rcv, now) {
			if _, err := o.msg.Pack(); err != nil {
				t.Fatalf("an answer does not pack: %v", err)
			}
		}
		br.handle(m, rcv, now)
		br.tick(now.Add(time.Hour))
	})
}
