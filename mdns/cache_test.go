package mdns

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"
)

// TestBrowserIsNotBlindedByAFlood: after more address records of hosts
// nobody asked for than the cache holds, each with the cache-flush bit
// and a TTL of 4e9 seconds, VRChat's announcement is found at once.
func TestBrowserIsNotBlindedByAFlood(t *testing.T) {
	b, ev := newTestBrowser(t)
	for k := range 4 {
		b.handle(flood(t, 200*k, 200), from(&eth, "192.0.2.50:5353"), t0.Add(time.Duration(k)*time.Millisecond))
	}
	b.handle(resp(t, vrchat...), from(&eth, "192.0.2.7:5353"), t0.Add(time.Second))
	if len(ev.found) != 1 || ev.found[0].Addr.String() != "192.0.2.7:9000" {
		t.Fatalf("after a flood of 800 address records, VRChat's announcement: found %+v", ev.found)
	}
}

// TestBrowserRefreshesOnlyWhatItWants: the records of an instance looked
// for are asked for again before they lapse; the address records
// overheard of other hosts never are.
func TestBrowserRefreshesOnlyWhatItWants(t *testing.T) {
	b, _ := newTestBrowser(t)
	b.handle(resp(t, vrchat...), from(&eth, "192.0.2.7:5353"), t0)
	b.handle(floodTTL(t, 0, 300, 120), from(&eth, "192.0.2.50:5353"), t0)
	srv, other := 0, 0
	for now := t0; now.Before(t0.Add(119 * time.Second)); now = now.Add(500 * time.Millisecond) {
		q := b.tick(now)
		if q == nil {
			continue
		}
		for _, x := range q.Question {
			switch {
			case strings.HasPrefix(x.Name, "h"):
				other++
			case x.Qtype == dns.TypeSRV:
				srv++
			}
		}
	}
	if srv != 4 || other != 0 {
		t.Errorf("VRChat's SRV asked for %d times (want 4), other hosts' addresses %d times (want none)", srv, other)
	}
}

// TestBrowserCapsTTLs: a record with a TTL of 4e9 seconds is kept for 75
// minutes at most, asked for again four times before, and then lost.
func TestBrowserCapsTTLs(t *testing.T) {
	b, ev := newTestBrowser(t)
	var long []string
	for _, l := range vrchat {
		long = append(long, strings.Replace(l, " 120 IN ", " 4000000000 IN ", 1))
	}
	b.handle(resp(t, long...), from(&eth, "192.0.2.7:5353"), t0)
	if len(ev.found) != 1 {
		t.Fatalf("found %+v", ev.found)
	}
	asked := 0
	for now := t0; now.Before(t0.Add(75 * time.Minute)); now = now.Add(10 * time.Second) {
		if asks(b.tick(now), "VRChat-Client-A1B2C3._osc._udp.local.", dns.TypeSRV) {
			asked++
		}
	}
	b.tick(t0.Add(75 * time.Minute))
	if asked != 4 || len(ev.lost) != 1 {
		t.Errorf("within 75 minutes the SRV was asked for %d times (want 4); lost %+v (want the instance, at 75 minutes)", asked, ev.lost)
	}
}

// TestBrowserFlushesWhatIsOlderThanASecond: a record with the cache-flush
// bit makes the others of its name and type received more than a second
// before lapse a second later (RFC 6762 section 10.2), and the instance
// is found at its new address at once; records of one announcement a
// second or less apart all stay.
func TestBrowserFlushesWhatIsOlderThanASecond(t *testing.T) {
	b, ev := newTestBrowser(t)
	const name = "VRChat-Client-A1B2C3._osc._udp.local."
	b.handle(resp(t, vrchat...), from(&eth, "192.0.2.7:5353"), t0)
	b.handle(resp(t, vrchat...), from(&eth, "192.0.2.7:5353"), t0.Add(time.Second))
	moved := resp(t, `VRChat-Client-A1B2C3._osc._udp.local. 120 IN SRV 0 0 9002 VRChat-Client-A1B2C3.osc.local.`)
	moved.Answer[0].Header().Class |= cacheFlush
	b.handle(moved, from(&eth, "192.0.2.7:5353"), t0.Add(2500*time.Millisecond))
	if len(ev.found) != 2 || ev.found[1].Addr.String() != "192.0.2.7:9002" {
		t.Fatalf("after the move: found %+v", ev.found)
	}
	b.tick(t0.Add(3499 * time.Millisecond))
	if n := len(b.c.get(name, dns.TypeSRV, t0.Add(3499*time.Millisecond))); n != 2 {
		t.Errorf("%d SRV records within the flushed one's last second, want both", n)
	}
	b.tick(t0.Add(3500 * time.Millisecond))
	if got := b.c.get(name, dns.TypeSRV, t0.Add(3500*time.Millisecond)); len(got) != 1 || got[0].rr.(*dns.SRV).Port != 9002 {
		t.Errorf("a second after the flush the SRV records are %v, want the new one alone", got)
	}
	if len(ev.lost) != 0 || len(ev.found) != 2 {
		t.Errorf("found %+v lost %+v", ev.found, ev.lost)
	}

	// A host with two addresses announced in two packets, one second
	// apart, then 1.5 s apart.
	for _, tc := range []struct {
		gap  time.Duration
		kept int
	}{{500 * time.Millisecond, 2}, {time.Second, 2}, {1500 * time.Millisecond, 1}} {
		b, _ := newTestBrowser(t)
		b.handle(resp(t, vrchat[:3]...), from(&eth, "192.0.2.7:5353"), t0)
		for k, a := range []string{"192.0.2.7", "192.0.2.8"} {
			m := resp(t, "VRChat-Client-A1B2C3.osc.local. 120 IN A "+a)
			m.Answer[0].Header().Class |= cacheFlush
			b.handle(m, from(&eth, "192.0.2.7:5353"), t0.Add(time.Duration(k)*tc.gap))
		}
		later := t0.Add(tc.gap + 2*time.Second)
		b.tick(later)
		if n := len(b.c.get("VRChat-Client-A1B2C3.osc.local.", dns.TypeA, later)); n != tc.kept {
			t.Errorf("two addresses with the cache-flush bit %v apart: %d kept, want %d", tc.gap, n, tc.kept)
		}
	}
}

// TestCacheKeepsWhatIsWanted: whatever mix of records arrives (seeded
// random: other types' instances, instances that do not match, SRV
// records to any host, addresses of hosts named and not, TTLs from 0 to
// 2^32-1, with and without the cache-flush bit), the cache never holds
// more than maxCached records nor any unwanted PTR, SRV or TXT, no record
// longer than maxTTL, its indexes agree with its records, and a wanted
// record just received is always in it.
func TestCacheKeepsWhatIsWanted(t *testing.T) {
	b, _ := newTestBrowser(t)
	b.match = func(instance string) bool { return strings.HasPrefix(instance, "VRChat-Client-") }
	rng := rand.New(rand.NewPCG(1, 1))
	ttls := []uint32{0, 1, 120, 4500, 4000000000, 1<<32 - 1}
	now := t0
	for k := range 10000 {
		now = now.Add(time.Duration(rng.IntN(200)) * time.Millisecond)
		inst := fmt.Sprintf("VRChat-Client-%d", rng.IntN(400))
		if rng.IntN(4) == 0 {
			inst = fmt.Sprintf("Other-%d", rng.IntN(400))
		}
		typ := []string{"_osc._udp", "_http._tcp"}[min(rng.IntN(8), 1)]
		host := fmt.Sprintf("h%d.local.", rng.IntN(600))
		var line string
		switch rng.IntN(4) {
		case 0:
			line = fmt.Sprintf("%s.local. %%d IN PTR %s.%s.local.", typ, inst, typ)
		case 1:
			line = fmt.Sprintf("%s.%s.local. %%d IN SRV 0 0 %d %s", inst, typ, 9000+rng.IntN(3), host)
		case 2:
			line = fmt.Sprintf("%s.%s.local. %%d IN TXT \"v=%d\"", inst, typ, rng.IntN(3))
		default:
			line = fmt.Sprintf("%s %%d IN A 192.0.2.%d", host, 1+rng.IntN(250))
		}
		rr := rrs(t, fmt.Sprintf(line, ttls[rng.IntN(len(ttls))]))[0]
		if rng.IntN(2) == 0 {
			rr.Header().Class |= cacheFlush
		}
		wanted := b.wanted(rr)
		m := new(dns.Msg)
		m.Response, m.Answer = true, []dns.RR{rr}
		b.handle(m, from(&eth, "192.0.2.7:5353"), now)
		if k%7 == 0 {
			b.tick(now)
		}
		if k%10 == 0 || k > 9900 {
			if err := validate(b, now); err != nil {
				t.Fatalf("after record %d (%v): %v", k, rr, err)
			}
		}
		if wanted && rr.Header().Ttl > 0 && !cached(b.c, rr, now) {
			t.Fatalf("record %d, wanted, was not cached: %v", k, rr)
		}
	}
}

// cached reports whether c holds rr, live.
func cached(c *cache, rr dns.RR, now time.Time) bool {
	for _, e := range c.get(rr.Header().Name, rr.Header().Rrtype, now) {
		if dataKey(e.rr) == dataKey(rr) {
			return true
		}
	}
	return false
}

// validate checks the cache's invariants against a recount.
func validate(b *browser, now time.Time) error {
	c := b.c
	n, targets := 0, map[string]int{}
	for k, set := range c.sets {
		if len(set) == 0 {
			return fmt.Errorf("an empty set %v", k)
		}
		for _, e := range set {
			n++
			h := e.rr.Header()
			if keyOf(h.Name, h.Rrtype) != k || c.records[recordKey{k, dataKey(e.rr)}] != e {
				return fmt.Errorf("%v filed under %v", e.rr, k)
			}
			if h.Rrtype != dns.TypeA && !b.wanted(e.rr) {
				return fmt.Errorf("an unwanted record is cached: %v", e.rr)
			}
			if e.ttl > maxTTL || e.expires.Sub(e.received) > maxTTL {
				return fmt.Errorf("%v kept for %v", e.rr, e.expires.Sub(e.received))
			}
			if srv, ok := e.rr.(*dns.SRV); ok {
				targets[strings.ToLower(srv.Target)]++
			}
		}
	}
	if n != c.size() || n != len(c.records) || n > maxCached {
		return fmt.Errorf("%d records, counted %d, indexed %d (at most %d)", n, c.size(), len(c.records), maxCached)
	}
	if !maps.Equal(targets, c.targets) {
		return fmt.Errorf("the SRV targets index is %v, recounted %v", c.targets, targets)
	}
	return nil
}
