package mdns

import (
	"net/netip"
	"testing"
	"time"

	"github.com/miekg/dns"
)

// Interfaces of the tests: loopback, and an Ethernet on 192.0.2.0/24.
var (
	lo  = Interface{Index: 1, Name: "lo", Loopback: true, Prefixes: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/8")}}
	eth = Interface{Index: 2, Name: "eth0", Prefixes: []netip.Prefix{netip.MustParsePrefix("192.0.2.1/24"), netip.MustParsePrefix("192.0.2.9/24")}}
)

// oscquery are the two services of an OSCQuery server listening at addr.
func oscquery(addr string) []Service {
	a := netip.MustParseAddr(addr)
	return []Service{{Type: "_oscjson._tcp", Port: 9432, Listen: a, Text: []string{"txtvers=1"}}, {Type: "_osc._udp", Port: 9431, Listen: a}}
}

// from is a datagram received on i from src.
func from(i *Interface, src string) received {
	return received{iface: i, src: netip.MustParseAddrPort(src)}
}

// t0 is the tests' clock's start.
var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// announce runs r until it has announced, returning the messages sent
// and the time it finished.
func announce(t *testing.T, r *responder, now time.Time) ([]outgoing, time.Time) {
	t.Helper()
	var all []outgoing
	for k := 0; k < 20 && r.state != announced; k++ {
		now = maxTime(now, r.due())
		all = append(all, r.tick(now)...)
	}
	if r.state != announced {
		t.Fatalf("not announced: state %d", r.state)
	}
	return all, now
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// rrs parses records written in zone-file form.
func rrs(t testing.TB, lines ...string) []dns.RR {
	t.Helper()
	var out []dns.RR
	for _, l := range lines {
		rr, err := dns.NewRR(l)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		out = append(out, rr)
	}
	return out
}

// query is a multicast query for name and type.
func query(name string, t uint16) *dns.Msg {
	m := new(dns.Msg)
	m.Question = []dns.Question{{Name: name, Qtype: t, Qclass: dns.ClassINET}}
	return m
}

// strs lists records as text, TTL included.
func strs(rs []dns.RR) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.String()
	}
	return out
}
