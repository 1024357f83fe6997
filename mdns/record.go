package mdns

import (
	"bytes"
	"slices"
	"strings"

	"github.com/miekg/dns"
)

// key identifies a record by name (case-insensitively), type and data,
// whatever its TTL and cache-flush bit.
func key(rr dns.RR) string {
	c := dns.Copy(rr)
	h := c.Header()
	h.Name, h.Ttl, h.Class = strings.ToLower(h.Name), 0, dns.ClassINET
	if srv, ok := c.(*dns.SRV); ok {
		srv.Target = strings.ToLower(srv.Target)
	}
	if ptr, ok := c.(*dns.PTR); ok {
		ptr.Ptr = strings.ToLower(ptr.Ptr)
	}
	return c.String()
}

// nameType identifies a record set: a name and a type.
func nameType(rr dns.RR) string {
	return strings.ToLower(rr.Header().Name) + "/" + dns.TypeToString[rr.Header().Rrtype]
}

// withTTL returns a copy of rr with its TTL set.
func withTTL(rr dns.RR, ttl uint32) dns.RR {
	c := dns.Copy(rr)
	c.Header().Ttl = ttl
	return c
}

// rdata returns rr's data as it is on the wire, uncompressed.
func rdata(rr dns.RR) []byte {
	buf := make([]byte, dns.Len(rr)+64)
	end, err := dns.PackRR(rr, buf, 0, nil, false)
	if err != nil {
		return nil
	}
	name := make([]byte, 256)
	n, err := dns.PackDomainName(rr.Header().Name, name, 0, nil, false)
	if err != nil || n+10 > end {
		return nil
	}
	return buf[n+10 : end]
}

// later compares two hosts' probed records of one name as RFC 6762
// section 8.2.1 orders them: sorted by class, type and data, compared in
// turn; the first difference, or the longer set, decides. It returns +1
// when ours are later (we win), -1 when theirs are, 0 when equal.
func later(ours, theirs []dns.RR) int {
	sortRR := func(rs []dns.RR) [][]byte {
		out := make([][]byte, len(rs))
		for i, r := range rs {
			h := r.Header()
			b := []byte{byte(h.Class >> 8 & 0x7f), byte(h.Class), byte(h.Rrtype >> 8), byte(h.Rrtype)}
			out[i] = append(b, rdata(r)...)
		}
		slices.SortFunc(out, bytes.Compare)
		return out
	}
	a, b := sortRR(ours), sortRR(theirs)
	for i := range min(len(a), len(b)) {
		if c := bytes.Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	switch {
	case len(a) > len(b):
		return 1
	case len(a) < len(b):
		return -1
	}
	return 0
}
