package mdns

import (
	"fmt"
	"net/netip"
	"slices"
	"testing"
	"time"

	"github.com/miekg/dns"
)

// events records a browser's reports.
type events struct{ found, lost []Found }

func newTestBrowser(t *testing.T) (*browser, *events) {
	t.Helper()
	b := newBrowser([]string{"_osc._udp"}, t0)
	ev := &events{}
	b.onFound = func(f Found) { ev.found = append(ev.found, f) }
	b.onLost = func(f Found) { ev.lost = append(ev.lost, f) }
	b.isLocal = func(a netip.Addr) bool { return a.IsLoopback() || a == netip.MustParseAddr("192.0.2.1") }
	return b, ev
}

// resp is a response holding the records.
func resp(t testing.TB, lines ...string) *dns.Msg {
	m := new(dns.Msg)
	m.Response = true
	m.Answer = rrs(t, lines...)
	return m
}

// vrchat are the records VRChat advertises its OSC port with.
var vrchat = []string{
	`_osc._udp.local. 120 IN PTR VRChat-Client-A1B2C3._osc._udp.local.`,
	`VRChat-Client-A1B2C3._osc._udp.local. 120 IN SRV 0 0 9000 VRChat-Client-A1B2C3.osc.local.`,
	`VRChat-Client-A1B2C3._osc._udp.local. 120 IN TXT "txtvers=1"`,
	`VRChat-Client-A1B2C3.osc.local. 120 IN A 192.0.2.7`,
}

// TestBrowserFindsMovesAndLoses: an instance is found once its PTR, SRV
// and address are known, found again when it moves, and lost a second
// after its goodbye.
func TestBrowserFindsMovesAndLoses(t *testing.T) {
	b, ev := newTestBrowser(t)
	b.handle(resp(t, vrchat...), from(&eth, "192.0.2.7:5353"), t0)
	if len(ev.found) != 1 || ev.found[0].Instance != "VRChat-Client-A1B2C3" || ev.found[0].Addr.String() != "192.0.2.7:9000" ||
		ev.found[0].Type != "_osc._udp" || ev.found[0].Local || ev.found[0].Interface != "eth0" || !slices.Equal(ev.found[0].Text, []string{"txtvers=1"}) {
		t.Fatalf("found %+v", ev.found)
	}
	b.handle(resp(t, vrchat...), from(&eth, "192.0.2.7:5353"), t0.Add(time.Second))
	if len(ev.found) != 1 {
		t.Errorf("the same records again were reported again")
	}
	moved := `VRChat-Client-A1B2C3._osc._udp.local. 120 IN SRV 0 0 9002 VRChat-Client-A1B2C3.osc.local.`
	m := resp(t, moved)
	m.Answer[0].Header().Class |= cacheFlush
	b.handle(m, from(&eth, "192.0.2.7:5353"), t0.Add(2500*time.Millisecond))
	b.tick(t0.Add(3500 * time.Millisecond)) // the old SRV, 1.5 s old when flushed, lapses a second later
	srvs := b.c.get("VRChat-Client-A1B2C3._osc._udp.local.", dns.TypeSRV, t0.Add(3500*time.Millisecond))
	if len(ev.found) != 2 || ev.found[1].Addr.String() != "192.0.2.7:9002" || len(ev.lost) != 0 || len(srvs) != 1 {
		t.Fatalf("after moving: found %+v lost %+v, %d SRV records cached", ev.found, ev.lost, len(srvs))
	}
	bye := resp(t, `_osc._udp.local. 0 IN PTR VRChat-Client-A1B2C3._osc._udp.local.`)
	b.handle(bye, from(&eth, "192.0.2.7:5353"), t0.Add(4*time.Second))
	b.tick(t0.Add(4900 * time.Millisecond))
	if len(ev.lost) != 0 {
		t.Errorf("lost before the goodbye's second")
	}
	b.tick(t0.Add(5 * time.Second))
	if len(ev.lost) != 1 || ev.lost[0].Instance != "VRChat-Client-A1B2C3" {
		t.Errorf("after the goodbye: lost %+v", ev.lost)
	}
}

// TestBrowserLosesWhatLapses: records not refreshed lapse with their TTL,
// and the instance with them; before that the browser asks for them
// again at 80 to 95 percent of it.
func TestBrowserLosesWhatLapses(t *testing.T) {
	b, ev := newTestBrowser(t)
	b.handle(resp(t, vrchat...), from(&eth, "192.0.2.7:5353"), t0)
	asked := 0
	for now := t0; now.Before(t0.Add(119 * time.Second)); now = now.Add(500 * time.Millisecond) {
		if q := b.tick(now); q != nil {
			for _, x := range q.Question {
				if x.Qtype == dns.TypeSRV && sameName(x.Name, "VRChat-Client-A1B2C3._osc._udp.local.") {
					asked++
				}
			}
		}
	}
	if asked != 4 || len(ev.lost) != 0 {
		t.Errorf("the SRV was asked for %d times before it lapsed (want 4); lost %v", asked, ev.lost)
	}
	b.tick(t0.Add(120 * time.Second))
	if len(ev.lost) != 1 {
		t.Errorf("not lost when its records lapsed")
	}
}

// TestBrowserAsksForWhatIsMissing: an answer of a PTR alone (HOSCY#42)
// makes the browser ask for the instance's SRV and TXT, and an SRV
// without an address for the host's address; the instance is found once
// all are known.
func TestBrowserAsksForWhatIsMissing(t *testing.T) {
	b, ev := newTestBrowser(t)
	b.handle(resp(t, vrchat[0]), from(&eth, "192.0.2.7:5353"), t0)
	q := b.tick(t0.Add(50 * time.Millisecond))
	if !asks(q, "VRChat-Client-A1B2C3._osc._udp.local.", dns.TypeSRV) || !asks(q, "VRChat-Client-A1B2C3._osc._udp.local.", dns.TypeTXT) {
		t.Fatalf("after a lone PTR the query is %v", q)
	}
	if q := b.tick(t0.Add(100 * time.Millisecond)); asks(q, "VRChat-Client-A1B2C3._osc._udp.local.", dns.TypeSRV) {
		t.Errorf("asked again within a second")
	}
	b.handle(resp(t, vrchat[1]), from(&eth, "192.0.2.7:5353"), t0.Add(200*time.Millisecond))
	if q := b.tick(t0.Add(250 * time.Millisecond)); !asks(q, "VRChat-Client-A1B2C3.osc.local.", dns.TypeA) {
		t.Fatalf("after an SRV without its address the query is %v", q)
	}
	if len(ev.found) != 0 {
		t.Fatal("found without an address")
	}
	b.handle(resp(t, vrchat[3]), from(&eth, "192.0.2.7:5353"), t0.Add(300*time.Millisecond))
	if len(ev.found) != 1 {
		t.Errorf("not found once complete")
	}
}

func asks(q *dns.Msg, name string, t uint16) bool {
	if q == nil {
		return false
	}
	for _, x := range q.Question {
		if x.Qtype == t && sameName(x.Name, name) {
			return true
		}
	}
	return false
}

// TestBrowserTakesLoopbackOnlyFromThisMachine: VRChat advertises
// 127.0.0.1 on every network (vrc-oscquery-lib#28): from this machine
// (sent from one of its addresses, or on loopback) that is VRChat here;
// from another machine it is unreachable, and the instance is not found.
func TestBrowserTakesLoopbackOnlyFromThisMachine(t *testing.T) {
	loop := append(slices.Clone(vrchat[:3]), `VRChat-Client-A1B2C3.osc.local. 120 IN A 127.0.0.1`)
	for _, tc := range []struct {
		rcv   received
		found bool
	}{
		{from(&eth, "192.0.2.7:5353"), false},
		{from(&eth, "192.0.2.1:5353"), true},
		{from(&lo, "127.0.0.1:5353"), true},
	} {
		b, ev := newTestBrowser(t)
		b.handle(resp(t, loop...), tc.rcv, t0)
		if (len(ev.found) == 1) != tc.found {
			t.Errorf("127.0.0.1 from %v on %s: found %v, want %v", tc.rcv.src, tc.rcv.iface.Name, ev.found, tc.found)
		}
		if tc.found && (!ev.found[0].Local || ev.found[0].Addr.String() != "127.0.0.1:9000") {
			t.Errorf("%+v", ev.found[0])
		}
	}
}

// TestBrowserQueriesLessAndLess: the PTR query goes out at once, then
// after 1, 2, 4, 8 ... seconds (RFC 6762 section 5.2), listing the
// instances known with more than half their TTL left.
func TestBrowserQueriesLessAndLess(t *testing.T) {
	b, _ := newTestBrowser(t)
	var at []time.Duration
	for now := t0; now.Before(t0.Add(40 * time.Second)); now = now.Add(10 * time.Millisecond) {
		if q := b.tick(now); asks(q, "_osc._udp.local.", dns.TypePTR) {
			at = append(at, now.Sub(t0).Round(100*time.Millisecond))
		}
		if now.Equal(t0.Add(2 * time.Second)) {
			b.handle(resp(t, vrchat...), from(&eth, "192.0.2.7:5353"), now)
		}
	}
	want := []time.Duration{0, time.Second, 3 * time.Second, 7 * time.Second, 15 * time.Second, 31 * time.Second}
	if !slices.Equal(at, want) {
		t.Errorf("queries at %v, want %v", at, want)
	}
	q := new(dns.Msg)
	b.next = t0
	if q = b.tick(t0.Add(50 * time.Second)); q == nil || len(q.Answer) != 1 {
		t.Errorf("a query 48 s after the answer lists %v as known, want the PTR", q)
	}
}

// TestBrowserIgnoresOthers: records of other types and queries do not
// fill the cache.
func TestBrowserIgnoresOthers(t *testing.T) {
	b, ev := newTestBrowser(t)
	b.handle(resp(t, `_http._tcp.local. 120 IN PTR web._http._tcp.local.`, `web._http._tcp.local. 120 IN SRV 0 0 80 web.local.`), from(&eth, "192.0.2.7:5353"), t0)
	q := query("_osc._udp.local.", dns.TypePTR)
	q.Answer = rrs(t, vrchat...)
	b.handle(q, from(&eth, "192.0.2.7:5353"), t0)
	if b.c.size() != 0 || len(ev.found) != 0 {
		t.Errorf("cached %d records, found %v", b.c.size(), ev.found)
	}
}

// TestBrowserTakesOnlyAddressesOnTheLink: anyone on a link can advertise
// a service at any address, and gloved streams to what it finds: an
// address is taken only on the link the answer came through (a host of
// the interface's networks), as the sender's own, or trusted; another
// subnet's address, the link's network and broadcast addresses and a
// multicast group are left out, logged and counted once.
func TestBrowserTakesOnlyAddressesOnTheLink(t *testing.T) {
	for _, tc := range []struct {
		addr    string
		trusted string
		found   bool
	}{
		{"192.0.2.7", "", true},     // the sender's own
		{"192.0.2.8", "", true},     // another host on the link
		{"198.51.100.7", "", false}, // another subnet: a reflection
		{"198.51.100.7", "198.51.100.0/24", true},
		{"198.51.100.7", "198.51.100.7/32", true},
		{"198.51.100.255", "198.51.100.0/24", false}, // the trusted prefix's broadcast address
		{"192.0.2.255", "", false},                   // the link's broadcast address
		{"192.0.2.0", "", false},
		{"224.0.0.1", "224.0.0.0/4", false},
		{"0.0.0.0", "", false},
		{"255.255.255.255", "", false},
	} {
		b, ev := newTestBrowser(t)
		var logged []string
		b.log = func(msg string, kv ...any) { logged = append(logged, msg) }
		if tc.trusted != "" {
			b.trusted = []netip.Prefix{netip.MustParsePrefix(tc.trusted)}
		}
		hostile := append(slices.Clone(vrchat[:3]), `VRChat-Client-A1B2C3.osc.local. 120 IN A `+tc.addr)
		b.handle(resp(t, hostile...), from(&eth, "192.0.2.7:5353"), t0)
		b.handle(resp(t, hostile...), from(&eth, "192.0.2.7:5353"), t0.Add(time.Second))
		if (len(ev.found) == 1) != tc.found {
			t.Errorf("%s advertised by 192.0.2.7 on 192.0.2.0/24, trusted %q: found %+v, want found %v", tc.addr, tc.trusted, ev.found, tc.found)
		}
		if refused := b.stats.Refused.Load(); !tc.found && (refused != 1 || len(logged) != 1) {
			t.Errorf("%s left out: counted %d, logged %q; want once each", tc.addr, refused, logged)
		}
	}
}

// TestBrowserForgetsWhatItRefused: the instances whose addresses were
// left out are remembered (to log each once) only while their records
// are cached: a thousand instance names advertising another machine's
// loopback address, each withdrawn, leave nothing behind.
func TestBrowserForgetsWhatItRefused(t *testing.T) {
	b, ev := newTestBrowser(t)
	now := t0
	for k := range 1000 {
		inst := fmt.Sprintf("VRChat-Client-%04d", k)
		records := []string{
			`_osc._udp.local. 120 IN PTR ` + inst + `._osc._udp.local.`,
			inst + `._osc._udp.local. 120 IN SRV 0 0 9000 ` + inst + `.osc.local.`,
			inst + `.osc.local. 120 IN A 127.0.0.1`,
		}
		b.handle(resp(t, records...), from(&eth, "192.0.2.7:5353"), now)
		bye := resp(t, `_osc._udp.local. 0 IN PTR `+inst+`._osc._udp.local.`)
		b.handle(bye, from(&eth, "192.0.2.7:5353"), now)
		now = now.Add(100 * time.Millisecond)
		b.tick(now)
		if len(b.refused) > 20 {
			t.Fatalf("after %d instances, %d remembered", k+1, len(b.refused))
		}
	}
	b.tick(now.Add(2 * time.Second))
	if len(b.refused) != 0 || len(ev.found) != 0 || b.stats.Refused.Load() != 1000 {
		t.Errorf("%d instances remembered, found %d, %d refused", len(b.refused), len(ev.found), b.stats.Refused.Load())
	}
}
