package osc

import (
	"net/netip"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	goosc "github.com/hypebeast/go-osc/osc"
)

// fuzzSources are the senders FuzzHubHandle picks from: loopback, allowed
// and stranger, IPv4 and IPv6. Nothing is sent to them (a recorder takes
// the hub's output).
var fuzzSources = []netip.AddrPort{
	netip.MustParseAddrPort("127.0.0.1:5000"), netip.MustParseAddrPort("127.0.0.2:6000"),
	netip.MustParseAddrPort("[::1]:7000"), netip.MustParseAddrPort("192.0.2.7:8000"),
	netip.MustParseAddrPort("192.0.2.8:8000"), netip.MustParseAddrPort("203.0.113.9:9000"),
	netip.MustParseAddrPort("[::ffff:203.0.113.9]:9000"), netip.MustParseAddrPort("[fe80::1%lo]:1"),
}

// FuzzHubHandle feeds arbitrary datagrams from chosen sources to the hub's
// packet handler: it must not panic, every wrist pose it passes on must be
// finite and inside the box and come from a trusted source, and its state
// must stay within the limits and the policy.
func FuzzHubHandle(f *testing.F) {
	seeds := [][]byte{
		packet(f, "/gloved/subscribe", "127.0.0.1", int32(5000)),
		packet(f, "/gloved/subscribe", "localhost", int32(5000)),
		packet(f, "/gloved/subscribe", "239.1.2.3", int32(5000)),
		packet(f, "/gloved/unsubscribe", "192.0.2.7", int32(8000)),
		packet(f, "/gloved/right/wrist", float32(0), float32(1), float32(0), float32(0), float32(0), float32(0), float32(1)),
		bundle(f, goosc.NewMessage("/gloved/subscribe", "192.0.2.7", int32(1)), goosc.NewMessage("/gloved/subscribe", "192.0.2.9", int32(2))),
		[]byte("/foo[\x00\x00\x00,i\x00\x00\x00\x00\x00\x01"),
	}
	for i, s := range seeds {
		f.Add(s, uint8(i))
	}
	f.Fuzz(func(t *testing.T, data []byte, pick uint8) {
		h, _, clk := testHub(t, Policy{Allow: []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}, PerSource: 3})
		h.OnWrist = func(hand string, p mgl64.Vec3, q mgl64.Quat) bool {
			if !inBox(DefaultWristBox, p) || !finiteVec(q.V) || !finite32(q.W) || hand == "" {
				t.Fatalf("wrist %q %v %v passed on", hand, p, q)
			}
			return true
		}
		for k := range 3 {
			src := fuzzSources[(int(pick)+k)%len(fuzzSources)]
			h.handle(data, src)
			clk.advance(DefaultLease / 4)
		}
		checkHubState(t, h)
	})
}

// checkHubState fails when the hub holds more subscriptions than its
// limits allow, or one its policy would refuse.
func checkHubState(t *testing.T, h *Hub) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if len(h.subs) > MaxSubscribers || len(h.lookups) > maxPendingLookups {
		t.Fatalf("%d subscriptions, %d lookups pending", len(h.subs), len(h.lookups))
	}
	per := map[netip.Addr]int{}
	for _, l := range h.subs {
		per[l.owner]++
		if per[l.owner] > h.policy.PerSource {
			t.Fatalf("%v holds %d subscriptions", l.owner, per[l.owner])
		}
		if err := h.permitLocked(l.owner, l.dest.Addr()); err != nil {
			t.Fatalf("subscription %v from %v: %v", l.dest, l.owner, err)
		}
	}
	var want []netip.AddrPort
	for _, l := range h.subs {
		if slices.Contains(want, l.dest) {
			t.Fatalf("%v is subscribed twice", l.dest)
		}
		want = append(want, l.dest)
	}
	if !slices.Equal(h.subDests, want) {
		t.Fatalf("destinations %v for subscriptions to %v", h.subDests, want)
	}
}
