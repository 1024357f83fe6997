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
func flood(t testing.TB, first, n int) *dns.Msg {
	m := new(dns.Msg)
	m.Response = true
	for k := first; k < first+n; k++ {
		rr := rrs(t, fmt.Sprintf("h%d.local. 4000000000 IN A 192.0.2.%d", k, 1+k%250))[0]
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
		br.handle(m, from(&eth, "192.0.2.7:5353"), t0.Add(time.Duration(k)*time.Second))
	}
}
