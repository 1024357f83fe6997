package mdns

import (
	"fmt"
	"testing"
	"time"

	"github.com/miekg/dns"
)

// flood is a response of n address records of hosts nobody asked for,
// each with the cache-flush bit and a TTL of 4e9 seconds: what a
// hostile or merely busy network sends.
func flood(t testing.TB, first, n int) *dns.Msg { return floodTTL(t, first, n, 4000000000) }

// floodTTL is flood with another TTL.
func floodTTL(t testing.TB, first, n int, ttl uint32) *dns.Msg {
	m := new(dns.Msg)
	m.Response = true
	for k := first; k < first+n; k++ {
		rr := rrs(t, fmt.Sprintf("h%d.local. %d IN A 192.0.2.%d", k, ttl, 1+k%250))[0]
		rr.Header().Class |= cacheFlush
		m.Answer = append(m.Answer, rr)
	}
	return m
}

// BenchmarkBrowserFlood: the cost of one 7.7 KB datagram of unrelated
// address records, decoded and handled, with the cache as full as such
// datagrams make it.
func BenchmarkBrowserFlood(b *testing.B) {
	br, _ := newTestBrowser(&testing.T{})
	br.onFound, br.onLost = nil, nil
	for k := 0; k < 4; k++ {
		br.handle(flood(b, 300*k, 300), from(&eth, "192.0.2.7:5353"), t0)
	}
	m := flood(b, 5000, 1)
	for m.Len() < 7700 {
		m.Answer = append(m.Answer, flood(b, 5000+len(m.Answer), 1).Answer...)
	}
	pkt, err := m.Pack()
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%d bytes, %d records", len(pkt), len(m.Answer))
	b.ReportAllocs()
	b.ResetTimer()
	for k := 0; k < b.N; k++ {
		m, _, err := unpack(pkt)
		if err != nil {
			b.Fatal(err)
		}
		now := t0.Add(time.Duration(k) * time.Second)
		br.handle(m, from(&eth, "192.0.2.7:5353"), now)
		br.tick(now) // as the peer does after each datagram
		br.due()
	}
}

// instances is a response announcing instances first to first+n-1 of
// _osc._udp, each with its PTR, SRV and address: records a browser wants.
func instances(t testing.TB, first, n int) *dns.Msg {
	m := new(dns.Msg)
	m.Response = true
	for k := first; k < first+n; k++ {
		inst := fmt.Sprintf("VRChat-Client-%06d._osc._udp.local.", k)
		host := fmt.Sprintf("vrc%06d.local.", k)
		m.Answer = append(m.Answer, rrs(t, "_osc._udp.local. 120 IN PTR "+inst)...)
		m.Extra = append(m.Extra, rrs(t, inst+" 120 IN SRV 0 0 9000 "+host, fmt.Sprintf("%s 120 IN A 192.0.2.%d", host, 1+k%250))...)
	}
	return m
}

// BenchmarkBrowserWantedFlood: the cost of one datagram of about 7.7 KB
// announcing new instances that match, each wanted, with the cache full:
// the worst a datagram can do (every record admitted, the oldest
// evicted, every instance resolved and reported).
func BenchmarkBrowserWantedFlood(b *testing.B) {
	br, _ := newTestBrowser(&testing.T{})
	br.onFound, br.onLost = nil, nil
	per := 1
	for instances(b, 0, per+1).Len() < 7700 {
		per++
	}
	pkts := make([][]byte, 64)
	for k := range pkts {
		pkt, err := instances(b, 1000+k*per, per).Pack()
		if err != nil {
			b.Fatal(err)
		}
		pkts[k] = pkt
	}
	for k := range 8 {
		br.handle(instances(b, k*per, per), from(&eth, "192.0.2.7:5353"), t0)
	}
	b.Logf("%d bytes, %d instances; %d records cached", len(pkts[0]), per, br.c.size())
	b.ReportAllocs()
	b.ResetTimer()
	for k := 0; k < b.N; k++ {
		m, _, err := unpack(pkts[k%len(pkts)])
		if err != nil {
			b.Fatal(err)
		}
		now := t0.Add(time.Duration(k) * time.Millisecond)
		br.handle(m, from(&eth, "192.0.2.7:5353"), now)
		br.tick(now) // as the peer does after each datagram
		br.due()
	}
}
