package osc

import (
	"net/netip"
	"strings"
	"testing"
)

// TestPermit: by default frames go only back to the sender's own address
// (any loopback address counts as the same machine); another host needs
// both in osc.allow; multicast and broadcast need the destination allowed
// explicitly (a single address or a multicast prefix), never through a
// unicast prefix that happens to cover it.
func TestPermit(t *testing.T) {
	lan := []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24"), netip.MustParsePrefix("239.1.2.3/32"),
		netip.MustParsePrefix("198.51.100.255/32"), netip.MustParsePrefix("10.0.0.0/8")}
	mcast := []netip.Prefix{netip.MustParsePrefix("224.0.0.0/4")}
	tests := []struct {
		allow    []netip.Prefix
		src, dst string
		ok       bool
		says     string
	}{
		{nil, "127.0.0.1", "127.0.0.1", true, ""},
		{nil, "127.0.0.1", "::1", true, ""},
		{nil, "::1", "127.0.0.5", true, ""},
		{nil, "192.0.2.7", "192.0.2.7", true, ""},
		{nil, "::ffff:192.0.2.7", "192.0.2.7", true, ""},
		{nil, "192.0.2.7", "192.0.2.8", false, "not the sender's address"},
		{nil, "127.0.0.1", "192.0.2.8", false, "not the sender's address"},
		{nil, "192.0.2.7", "127.0.0.1", false, "not the sender's address"},
		{nil, "127.0.0.1", "239.1.2.3", false, "multicast"},
		{nil, "192.0.2.7", "224.0.0.1", false, "multicast"},
		{nil, "::1", "ff02::1", false, "multicast"},
		{nil, "127.0.0.1", "255.255.255.255", false, "broadcast"},
		{nil, "127.0.0.1", "0.0.0.0", false, "unspecified"},
		{nil, "127.0.0.1", "::", false, "unspecified"},
		{lan, "127.0.0.1", "192.0.2.8", true, ""},
		{lan, "192.0.2.7", "192.0.2.8", true, ""},
		{lan, "192.0.2.7", "127.0.0.1", true, ""},
		{lan, "203.0.113.5", "192.0.2.8", false, "not the sender's address"},
		{lan, "192.0.2.7", "203.0.113.5", false, "not the sender's address"},
		{lan, "127.0.0.1", "239.1.2.3", true, ""},
		{lan, "127.0.0.1", "239.1.2.4", false, "multicast"},
		{lan, "203.0.113.5", "239.1.2.3", false, "multicast"},
		{lan, "192.0.2.7", "192.0.2.255", false, "broadcast"},
		{lan, "127.0.0.1", "10.255.255.255", false, "broadcast"},
		{lan, "127.0.0.1", "10.1.255.255", false, "broadcast"}, // an interface's broadcast address
		{lan, "127.0.0.1", "198.51.100.255", true, ""},
		{mcast, "127.0.0.1", "239.9.9.9", true, ""},
		{mcast, "192.0.2.7", "239.9.9.9", false, "multicast"},
	}
	for _, tc := range tests {
		h, _, _ := testHub(t, Policy{Allow: tc.allow})
		h.bcast = []netip.Addr{netip.MustParseAddr("10.1.255.255")}
		err := h.permit(netip.MustParseAddr(tc.src), netip.MustParseAddr(tc.dst))
		if (err == nil) != tc.ok || (err != nil && !strings.Contains(err.Error(), tc.says)) {
			t.Errorf("allow %v, %s -> %s: got %v, want ok %v saying %q", tc.allow, tc.src, tc.dst, err, tc.ok, tc.says)
		}
	}
}

// TestPermitFollowsTheSocketsFamily: a hub listening on an IPv4 address
// cannot send to IPv6 destinations, and says so instead of counting send
// errors forever.
func TestPermitFollowsTheSocketsFamily(t *testing.T) {
	h, _, _ := testHub(t, Policy{})
	h.local = ap("127.0.0.1:9431")
	if err := h.permit(netip.MustParseAddr("::1"), netip.MustParseAddr("::1")); err == nil || !strings.Contains(err.Error(), "another IP version (IPv6)") {
		t.Errorf("IPv6 destination on an IPv4 socket: got %v", err)
	}
	h.local = ap("[::]:9431")
	if err := h.permit(netip.MustParseAddr("::1"), netip.MustParseAddr("::1")); err != nil {
		t.Errorf("IPv6 destination on a dual-stack socket: %v", err)
	}
}

// TestTrusted: loopback is always trusted for control; other sources only
// through osc.allow.
func TestTrusted(t *testing.T) {
	h, _, _ := testHub(t, Policy{Allow: []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}})
	for src, want := range map[string]bool{"127.0.0.1": true, "127.3.2.1": true, "::1": true, "::ffff:127.0.0.1": true,
		"192.0.2.99": true, "::ffff:192.0.2.99": true, "192.0.3.1": false, "fd00::2": false} {
		if got := h.trusted(netip.MustParseAddr(src)); got != want {
			t.Errorf("trusted(%s) = %v, want %v", src, got, want)
		}
	}
}
