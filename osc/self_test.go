package osc

import (
	"net/netip"
	"testing"
)

// TestSendsToSelfIsWhereTheSocketReceives: a datagram reaches gloved's
// own socket at its port on its address, or, bound to every address, on
// loopback or one of the machine's (0.0.0.0 as [::]: Go binds either to
// both IP versions); another port, another address or a port yet to be
// chosen never.
func TestSendsToSelfIsWhereTheSocketReceives(t *testing.T) {
	lan := netip.MustParseAddr("192.168.7.20")
	own := []netip.Addr{lan}
	ap := netip.MustParseAddrPort
	for _, tc := range []struct {
		local, dst string
		self       bool
	}{
		{"127.0.0.1:9431", "127.0.0.1:9431", true},
		{"127.0.0.1:9431", "127.0.0.1:9430", false},
		{"127.0.0.1:9431", "127.0.0.2:9431", false},
		{"127.0.0.1:9431", "[::ffff:127.0.0.1]:9431", true},
		{"0.0.0.0:9431", "127.0.0.5:9431", true},
		{"0.0.0.0:9431", "192.168.7.20:9431", true},
		{"0.0.0.0:9431", "192.168.7.21:9431", false},
		{"0.0.0.0:9431", "[::1]:9431", true},
		{"[::]:9431", "[::1]:9431", true},
		{"[::]:9431", "192.168.7.20:9431", true},
		{"127.0.0.1:0", "127.0.0.1:0", false},
	} {
		if got := SendsToSelf(ap(tc.local), ap(tc.dst), own); got != tc.self {
			t.Errorf("socket at %s, datagram to %s: self %v, want %v", tc.local, tc.dst, got, tc.self)
		}
	}
}
