package mdns

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"
)

// TestResponderProbesThenAnnounces: three probes 250 ms apart, each
// asking ANY for every name the instance would own with its records in
// the authority section; then two announcements a second apart in
// VRChat's layout (PTRs as answers; SRV, TXT and exactly one address as
// additional records); the name is reported when announced.
func TestResponderProbesThenAnnounces(t *testing.T) {
	var stats Stats
	r := newResponder("gloved-lab", oscquery("127.0.0.1"), []*Interface{&lo}, t0, &stats)
	var named []string
	r.onName = func(n string) { named = append(named, n) }
	out, end := announce(t, r, t0)
	if len(out) != probes+announcements {
		t.Fatalf("%d messages, want %d probes and %d announcements", len(out), probes, announcements)
	}
	for k, o := range out[:probes] {
		m := o.msg
		var qs []string
		for _, q := range m.Question {
			qs = append(qs, q.Name+" "+dns.TypeToString[q.Qtype])
		}
		want := []string{`gloved-lab._oscjson._tcp.local. ANY`, "gloved-lab-oscjson.local. ANY", `gloved-lab._osc._udp.local. ANY`, "gloved-lab-osc.local. ANY"}
		if !slices.Equal(qs, want) || len(m.Ns) != 6 || m.Response || o.to.IsValid() {
			t.Errorf("probe %d: questions %v, %d authority records", k, qs, len(m.Ns))
		}
	}
	for _, o := range out[probes:] {
		m := o.msg
		if !m.Response || !m.Authoritative || len(m.Answer) != 2 || len(m.Extra) != 6 {
			t.Fatalf("announcement: %v", m)
		}
		for _, a := range m.Answer {
			if a.Header().Rrtype != dns.TypePTR || a.Header().Class != dns.ClassINET {
				t.Errorf("answer %v: want the shared PTRs only", a)
			}
		}
		addrs := 0
		for _, e := range m.Extra {
			if e.Header().Class != dns.ClassINET|cacheFlush || e.Header().Ttl != TTL {
				t.Errorf("%v: want the cache-flush bit and TTL %d", e, TTL)
			}
			if a, ok := e.(*dns.A); ok {
				addrs++
				if a.A.String() != "127.0.0.1" {
					t.Errorf("%v", a)
				}
			}
		}
		if addrs != 2 {
			t.Errorf("%d address records for 2 host names", addrs)
		}
	}
	if got := end.Sub(t0); got < 750*time.Millisecond || got > 2*time.Second {
		t.Errorf("announced after %v, want 0.75 s of probing plus the second announcement", got)
	}
	if !slices.Equal(named, []string{"gloved-lab"}) {
		t.Errorf("named %v", named)
	}
}

// TestResponderAdvertisesWhereReached: a service is advertised on the
// interfaces it is reached through, each time at exactly one address:
// loopback only on lo, 0.0.0.0 on every interface at the interface's
// first address, a LAN address only on its interface; a service
// limited to some interfaces only on those.
func TestResponderAdvertisesWhereReached(t *testing.T) {
	for _, tc := range []struct {
		listen string
		want   map[string]string // interface: address advertised
	}{
		{"127.0.0.1", map[string]string{"lo": "127.0.0.1"}},
		{"0.0.0.0", map[string]string{"lo": "127.0.0.1", "eth0": "192.0.2.1"}},
		{"192.0.2.9", map[string]string{"eth0": "192.0.2.9"}},
		{"198.51.100.1", map[string]string{}},
		{"0.0.0.0 on lo", map[string]string{"lo": "127.0.0.1"}},
	} {
		var stats Stats
		listen, only, _ := strings.Cut(tc.listen, " on ")
		svc := oscquery(listen)[:1]
		if only != "" {
			svc[0].On = []string{only}
		}
		r := newResponder("gloved-lab", svc, []*Interface{&lo, &eth}, t0, &stats)
		got := map[string]string{}
		for _, i := range []*Interface{&lo, &eth} {
			for _, set := range r.on(i, TTL) {
				got[i.Name] = set.a.(*dns.A).A.String()
			}
		}
		if len(got) != len(tc.want) {
			t.Errorf("listening on %s: advertised %v, want %v", tc.listen, got, tc.want)
		}
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("listening on %s: advertised %v, want %v", tc.listen, got, tc.want)
			}
		}
	}
}

// running returns a responder of the two services on lo, announced.
func running(t *testing.T) (*responder, time.Time, *Stats) {
	t.Helper()
	stats := new(Stats)
	r := newResponder("gloved-lab", oscquery("127.0.0.1"), []*Interface{&lo}, t0, stats)
	_, now := announce(t, r, t0)
	return r, now.Add(5 * time.Second), stats
}

// TestResponderAnswers: each question gets its records and their
// additional records (RFC 6763 section 12); a question about another name
// gets nothing.
func TestResponderAnswers(t *testing.T) {
	for _, tc := range []struct {
		name          string
		qtype         uint16
		answer, extra []string // record types
	}{
		{"_oscjson._tcp.local.", dns.TypePTR, []string{"PTR"}, []string{"SRV", "TXT", "A"}},
		{"_OSC._UDP.local.", dns.TypePTR, []string{"PTR"}, []string{"SRV", "TXT", "A"}},
		{"gloved-lab._osc._udp.local.", dns.TypeSRV, []string{"SRV"}, []string{"A"}},
		{"gloved-lab._osc._udp.local.", dns.TypeTXT, []string{"TXT"}, nil},
		{"gloved-lab._osc._udp.local.", dns.TypeANY, []string{"SRV", "TXT"}, []string{"A"}},
		{"gloved-lab-osc.local.", dns.TypeA, []string{"A"}, nil},
		{"_services._dns-sd._udp.local.", dns.TypePTR, []string{"PTR", "PTR"}, nil},
		{"_http._tcp.local.", dns.TypePTR, nil, nil},
		{"gloved-lab-osc.local.", dns.TypeAAAA, nil, nil},
	} {
		r, now, _ := running(t)
		out := r.answer(query(tc.name, tc.qtype), from(&lo, "127.0.0.1:5353"), now)
		if len(tc.answer) == 0 {
			if len(out) != 0 {
				t.Errorf("%s %s: answered %v", tc.name, dns.TypeToString[tc.qtype], out[0].msg)
			}
			continue
		}
		if len(out) != 1 || out[0].to.IsValid() {
			t.Fatalf("%s %s: %d messages", tc.name, dns.TypeToString[tc.qtype], len(out))
		}
		if a, e := types(out[0].msg.Answer), types(out[0].msg.Extra); !slices.Equal(a, tc.answer) || !slices.Equal(e, tc.extra) {
			t.Errorf("%s %s: answers %v extra %v, want %v %v", tc.name, dns.TypeToString[tc.qtype], a, e, tc.answer, tc.extra)
		}
	}
}

func types(rs []dns.RR) []string {
	var out []string
	for _, r := range rs {
		out = append(out, dns.TypeToString[r.Header().Rrtype])
	}
	return out
}

// TestResponderHoldsBack: a record the asker lists as known with at least
// half its TTL is not sent (known-answer suppression); one multicast on
// the interface within the last second is not sent again, except to
// defend against a probe after 250 ms; nothing is answered while probing.
func TestResponderHoldsBack(t *testing.T) {
	r, now, stats := running(t)
	q := query("_osc._udp.local.", dns.TypePTR)
	q.Answer = rrs(t, `_osc._udp.local. 100 IN PTR gloved-lab._osc._udp.local.`)
	if out := r.answer(q, from(&lo, "127.0.0.1:5353"), now); len(out) != 0 {
		t.Errorf("a known answer was sent: %v", out[0].msg)
	}
	q.Answer = rrs(t, `_osc._udp.local. 50 IN PTR gloved-lab._osc._udp.local.`)
	if out := r.answer(q, from(&lo, "127.0.0.1:5353"), now); len(out) != 1 {
		t.Fatalf("a known answer with less than half its TTL left was not refreshed")
	}
	q.Answer = nil
	if out := r.answer(q, from(&lo, "127.0.0.1:5353"), now.Add(500*time.Millisecond)); len(out) != 0 {
		t.Errorf("the PTR was multicast again within a second")
	}
	if out := r.answer(q, from(&lo, "127.0.0.1:5353"), now.Add(1100*time.Millisecond)); len(out) != 1 {
		t.Errorf("the PTR was not multicast after a second")
	}
	probe := query("gloved-lab._osc._udp.local.", dns.TypeANY)
	probe.Ns = rrs(t, `gloved-lab._osc._udp.local. 120 IN SRV 0 0 9999 other.local.`)
	if out := r.answer(probe, from(&lo, "127.0.0.1:5353"), now.Add(1400*time.Millisecond)); len(out) != 1 {
		t.Errorf("a probe for the name was not answered 300 ms after the last answer")
	}
	if stats.Limited.Load() == 0 {
		t.Error("nothing was counted as held back")
	}
	p := newResponder("gloved-lab", oscquery("127.0.0.1"), []*Interface{&lo}, t0, stats)
	if out := p.answer(query("_osc._udp.local.", dns.TypePTR), from(&lo, "127.0.0.1:5353"), t0); len(out) != 0 {
		t.Error("answered while probing")
	}
}

// TestResponderLimitsBursts: however many probes for its names arrive
// (each of which it may answer every 250 ms), at most maxPerSecond
// responses a second leave on an interface.
func TestResponderLimitsBursts(t *testing.T) {
	r, now, _ := running(t)
	names := []string{"gloved-lab._osc._udp.local.", "gloved-lab._oscjson._tcp.local.", "gloved-lab-osc.local.", "gloved-lab-oscjson.local.",
		"_osc._udp.local.", "_oscjson._tcp.local.", "_services._dns-sd._udp.local."}
	sent := 0
	for k := range 1000 {
		q := query(names[k%len(names)], dns.TypeANY)
		q.Ns = rrs(t, names[k%len(names)]+" 120 IN TXT \"x\"")
		sent += len(r.answer(q, from(&lo, "127.0.0.1:5353"), now.Add(time.Duration(k)*time.Millisecond)))
	}
	// Unlimited, the probes' 250 ms gap would let 28 through.
	if sent != maxPerSecond {
		t.Errorf("%d responses in a second, want the limit, %d", sent, maxPerSecond)
	}
}

// TestResponderAnswersLegacyResolvers: a query from a port other than
// 5353 (dig -p 5353 @224.0.0.251) gets a unicast DNS answer: its ID and
// question, TTLs of at most 10 s, no cache-flush bits.
func TestResponderAnswersLegacyResolvers(t *testing.T) {
	r, now, _ := running(t)
	q := query("gloved-lab-oscjson.local.", dns.TypeA)
	q.Id = 4242
	out := r.answer(q, from(&lo, "127.0.0.1:40000"), now)
	if len(out) != 1 || out[0].to.String() != "127.0.0.1:40000" {
		t.Fatalf("%v", out)
	}
	m := out[0].msg
	if m.Id != 4242 || len(m.Question) != 1 || len(m.Answer) != 1 || m.Answer[0].Header().Ttl != legacyTTL || m.Answer[0].Header().Class != dns.ClassINET {
		t.Errorf("legacy answer %v", m)
	}
}

// TestResponderRenamesOnConflict: a response holding one of the names
// with other data, while probing, makes the instance "name (2)" and
// probing start again; after announcing, it makes the responder probe
// again. A goodbye or an identical record is no conflict.
func TestResponderRenamesOnConflict(t *testing.T) {
	stats := new(Stats)
	r := newResponder("gloved-lab", oscquery("127.0.0.1"), []*Interface{&lo}, t0, stats)
	var named []string
	r.onName = func(n string) { named = append(named, n) }
	now := r.due()
	r.tick(now)
	theirs := new(dns.Msg)
	theirs.Response = true
	theirs.Answer = rrs(t, `gloved-lab._osc._udp.local. 120 IN SRV 0 0 9000 elsewhere.local.`)
	r.handle(theirs, from(&lo, "127.0.0.1:5353"), now.Add(10*time.Millisecond))
	if r.name != "gloved-lab (2)" || r.state != probing || r.sent != 0 {
		t.Fatalf("after a conflict: %q, state %d", r.name, r.state)
	}
	announce(t, r, now.Add(10*time.Millisecond))
	if !slices.Equal(named, []string{"gloved-lab (2)"}) || stats.Renames.Load() != 1 {
		t.Errorf("named %v, renames %d", named, stats.Renames.Load())
	}
	if got := r.on(&lo, TTL)[1].srv.Header().Name; got != `gloved-lab\ \(2\)._osc._udp.local.` {
		t.Errorf("renamed SRV name %q", got)
	}
	same := new(dns.Msg)
	same.Response = true
	same.Answer = []dns.RR{r.on(&lo, TTL)[1].srv}
	bye := new(dns.Msg)
	bye.Response = true
	bye.Answer = rrs(t, `gloved-lab\ \(2\)._osc._udp.local. 0 IN SRV 0 0 1 x.local.`)
	r.handle(same, from(&lo, "127.0.0.1:5353"), now.Add(5*time.Second))
	r.handle(bye, from(&lo, "127.0.0.1:5353"), now.Add(5*time.Second))
	if r.state != announced {
		t.Errorf("an identical record or a goodbye made it probe again")
	}
	later := new(dns.Msg)
	later.Response = true
	later.Extra = rrs(t, `gloved-lab-2-osc.local. 120 IN A 127.0.0.2`)
	r.handle(later, from(&lo, "127.0.0.1:5353"), now.Add(6*time.Second))
	if r.state != probing || r.name != "gloved-lab (2)" {
		t.Errorf("a conflict after announcing: state %d name %q, want probing the same name", r.state, r.name)
	}
}

// TestResponderTiebreak: two hosts probing for one name at once: the one
// whose records are lexicographically later goes on (RFC 6762 section
// 8.2); the other waits a second and probes again.
func TestResponderTiebreak(t *testing.T) {
	for _, tc := range []struct {
		port   string
		defers bool
	}{{"9999", true}, {"1", false}} {
		stats := new(Stats)
		r := newResponder("gloved-lab", oscquery("127.0.0.1")[1:], []*Interface{&lo}, t0, stats)
		now := r.due()
		r.tick(now)
		probe := query("gloved-lab._osc._udp.local.", dns.TypeANY)
		probe.Ns = rrs(t, `gloved-lab._osc._udp.local. 120 IN SRV 0 0 `+tc.port+` gloved-lab-osc.local.`,
			`gloved-lab._osc._udp.local. 120 IN TXT ""`)
		r.handle(probe, from(&lo, "127.0.0.1:5353"), now.Add(time.Millisecond))
		deferred := r.sent == 0 && r.next.Sub(now) >= lostTieWait
		if deferred != tc.defers {
			t.Errorf("their SRV port %s: deferred %v, want %v", tc.port, deferred, tc.defers)
		}
	}
}

// TestLaterIsRFC6762sExample: of two hosts probing for one name with
// addresses 169.254.99.200 and 169.254.200.50, the second wins.
func TestLaterIsRFC6762sExample(t *testing.T) {
	a := rrs(t, "cheshire.local. 120 IN A 169.254.99.200")
	b := rrs(t, "cheshire.local. 120 IN A 169.254.200.50")
	if later(a, b) >= 0 || later(b, a) <= 0 || later(a, a) != 0 {
		t.Errorf("later: %d %d %d", later(a, b), later(b, a), later(a, a))
	}
	if later(append(rrs(t, "cheshire.local. 120 IN A 169.254.250.1"), b...), b) <= 0 {
		t.Error("the longer set of equal prefix does not win")
	}
}

// TestResponderSaysGoodbye: closing withdraws every record with TTL 0;
// a responder that never announced sends nothing.
func TestResponderSaysGoodbye(t *testing.T) {
	r, _, _ := running(t)
	out := r.goodbye()
	if len(out) != 1 {
		t.Fatalf("%d goodbyes", len(out))
	}
	for _, rr := range append(out[0].msg.Answer, out[0].msg.Extra...) {
		if rr.Header().Ttl != 0 {
			t.Errorf("goodbye %v", rr)
		}
	}
	p := newResponder("gloved-lab", oscquery("127.0.0.1"), []*Interface{&lo}, t0, new(Stats))
	if out := p.goodbye(); len(out) != 0 {
		t.Errorf("a probing responder said goodbye: %v", out)
	}
	if !strings.Contains(out[0].msg.String(), "gloved-lab._oscjson._tcp.local.") {
		t.Errorf("%v", out[0].msg)
	}
}

// TestResponderGivesUpAfterMaxRenames: a name that every host holds
// (here each probe meets an answer for it at once): renames count to
// "(100)", every name a DNS label of at most 63 bytes however long the
// base, each probe packing; after 15 conflicts within 10 s probes wait 5
// s (RFC 6762 section 8.1); then it gives up for a while: the failure is
// said once, and the last name is neither probed, answered, defended nor
// said goodbye to (the records are another host's) until retryFirst has
// passed, when it probes for its own name again and, the storm over,
// takes it.
func TestResponderGivesUpAfterMaxRenames(t *testing.T) {
	stats := new(Stats)
	base := strings.Repeat("é", 29) // 58 bytes
	r := newResponder(base, oscquery("127.0.0.1"), []*Interface{&lo}, t0, stats)
	var failed []error
	var named []string
	r.onFail = func(err error) { failed = append(failed, err) }
	r.onName = func(n string) { named = append(named, n) }
	var probesAt []time.Time
	for k := 0; r.state != unnamed && k < 10*maxRenames; k++ {
		now := r.due()
		out := r.tick(now)
		if len(out) == 0 {
			t.Fatalf("step %d: nothing sent, state %d", k, r.state)
		}
		for _, o := range out {
			if _, err := o.msg.Pack(); err != nil {
				t.Fatalf("%q: the probe does not pack: %v", r.name, err)
			}
		}
		if len(r.name) > maxLabel {
			t.Fatalf("%q: %d bytes", r.name, len(r.name))
		}
		probesAt = append(probesAt, now)
		theirs := new(dns.Msg)
		theirs.Response = true
		theirs.Answer = rrs(t, instanceName(r.name, "_osc._udp")+` 120 IN SRV 0 0 1 elsewhere.local.`)
		r.handle(theirs, from(&lo, "127.0.0.1:5353"), now.Add(time.Millisecond))
	}
	if r.state != unnamed || len(probesAt) != maxRenames || stats.Renames.Load() != maxRenames || len(failed) != 1 || len(named) != 0 {
		t.Fatalf("state %d after %d probes, %d renames; failed %v; named %q", r.state, len(probesAt), stats.Renames.Load(), failed, named)
	}
	if !strings.HasSuffix(r.name, " (100)") || len(r.name) > maxLabel {
		t.Errorf("the last name tried: %q (%d bytes)", r.name, len(r.name))
	}
	for k := 1; k < len(probesAt); k++ {
		gap := probesAt[k].Sub(probesAt[k-1])
		if want := k >= conflictBurst; (gap >= conflictWait) != want {
			t.Errorf("probe %d came %v after the last, want 5 s or more: %v", k+1, gap, want)
		}
	}
	now := probesAt[len(probesAt)-1].Add(time.Minute)
	probe := query(instanceName(r.name, "_osc._udp"), dns.TypeANY)
	probe.Ns = rrs(t, instanceName(r.name, "_osc._udp")+` 120 IN SRV 0 0 1 elsewhere.local.`)
	for _, q := range []*dns.Msg{query(instanceName(r.name, "_osc._udp"), dns.TypeSRV), query("_osc._udp.local.", dns.TypePTR), probe} {
		if out := r.handle(q, from(&lo, "127.0.0.1:5353"), now); len(out) != 0 {
			t.Errorf("having given up, it answered %v", out[0].msg)
		}
	}
	gaveUp := probesAt[len(probesAt)-1].Add(time.Millisecond)
	if out, due := r.tick(gaveUp.Add(retryFirst-time.Second)), r.due(); len(out) != 0 || !due.Equal(gaveUp.Add(retryFirst)) || len(r.goodbye()) != 0 {
		t.Errorf("having given up: sends %v, due %v (want %v), goodbye %v", out, due, gaveUp.Add(retryFirst), r.goodbye())
	}
	if !strings.Contains(failed[0].Error(), "trying again in 1m0s") {
		t.Errorf("the failure does not say when it tries again: %v", failed[0])
	}
	// The storm is over: nobody answers its probes now.
	out := r.tick(r.due())
	if len(out) == 0 || r.name != base || !strings.Contains(out[0].msg.String(), instanceName(base, "_osc._udp")) {
		t.Fatalf("after the wait it did not probe its own name again: %q, %v", r.name, out)
	}
	for k := 0; len(named) == 0 && k < 10; k++ {
		r.tick(r.due())
	}
	if len(named) != 1 || named[0] != base {
		t.Errorf("after the storm it did not take its name: named %q", named)
	}
}

// TestResponderWaitsLongerEachTimeItGivesUp: a storm that goes on makes
// the waits double, from a minute to at most an hour.
func TestResponderWaitsLongerEachTimeItGivesUp(t *testing.T) {
	r := newResponder("gloved", oscquery("127.0.0.1"), []*Interface{&lo}, t0, new(Stats))
	var waits []time.Duration
	now := t0
	for len(waits) < 8 {
		out := r.tick(r.due())
		now = r.due()
		if len(out) == 0 {
			t.Fatalf("nothing sent in state %d", r.state)
		}
		theirs := new(dns.Msg)
		theirs.Response = true
		theirs.Answer = rrs(t, instanceName(r.name, "_osc._udp")+` 120 IN SRV 0 0 1 elsewhere.local.`)
		at := now.Add(-time.Millisecond)
		r.handle(theirs, from(&lo, "127.0.0.1:5353"), at)
		if r.state == unnamed {
			waits = append(waits, r.due().Sub(at))
		}
	}
	want := []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute, 32 * time.Minute, time.Hour, time.Hour}
	if !slices.Equal(waits, want) {
		t.Errorf("waits %v, want %v", waits, want)
	}
}

// TestNamesFitALabel: a rename's suffix cuts the base, on a rune
// boundary, to keep the name within a label; host names keep to a label
// too, distinct for each rename.
func TestNamesFitALabel(t *testing.T) {
	long := "gloved-" + strings.Repeat("x", 56) // 63 bytes
	hosts := map[string]bool{}
	for n := 1; n <= maxRenames; n++ {
		name := renamed(long, n)
		if len(name) > maxLabel || !strings.HasPrefix(long, strings.TrimSuffix(name, fmt.Sprintf(" (%d)", n))) {
			t.Errorf("renamed(%d) = %q (%d bytes)", n, name, len(name))
		}
		for _, typ := range []string{"_oscjson._tcp", "_osc._udp"} {
			h := HostName(name, typ)
			if label, _ := firstLabel(h); len(label) > maxLabel || hosts[h] {
				t.Errorf("HostName(%q, %s) = %q: %d bytes, seen before %v", name, typ, h, len(label), hosts[h])
			}
			hosts[h] = true
		}
	}
	if got := renamed(strings.Repeat("é", 31), 2); got != strings.Repeat("é", 29)+" (2)" {
		t.Errorf("a base of two-byte runes: %q", got)
	}
}

// TestResponderLimitsLegacyAnswers: a legacy query's source may be
// forged, and the answer is larger than the query: however many arrive,
// one address gets at most legacyPerSource answers a second, and an
// interface sends at most maxPerSecond responses a second, multicast and
// unicast together; a second later answers go out again.
func TestResponderLimitsLegacyAnswers(t *testing.T) {
	for _, tc := range []struct {
		what    string
		sources int
		want    int
	}{
		{"one forged source", 1, legacyPerSource},
		{"a thousand forged sources", 1000, maxPerSecond},
	} {
		r, now, stats := running(t)
		sent := 0
		for k := range 1000 {
			src := netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, byte(k % tc.sources / 250), byte(1 + k%tc.sources%250)}), 40000)
			sent += len(r.answer(query("gloved-lab-osc.local.", dns.TypeA), received{iface: &lo, src: src}, now.Add(time.Duration(k)*time.Millisecond/2)))
		}
		if sent != tc.want || stats.Limited.Load() != uint64(1000-tc.want) {
			t.Errorf("%s: %d answers in half a second, %d held back; want %d", tc.what, sent, stats.Limited.Load(), tc.want)
		}
		if out := r.answer(query("_osc._udp.local.", dns.TypePTR), from(&lo, "127.0.0.1:5353"), now.Add(200*time.Millisecond)); tc.sources > 1 && len(out) != 0 {
			t.Errorf("%s: a multicast answer went out beyond the interface's %d a second", tc.what, maxPerSecond)
		}
		if out := r.answer(query("gloved-lab-osc.local.", dns.TypeA), from(&lo, "127.0.0.1:40000"), now.Add(1500*time.Millisecond)); len(out) != 1 {
			t.Errorf("%s: not answered a second later", tc.what)
		}
	}
}

// TestLegacyAnswersAreAtMostTwiceTheirQuery: a legacy resolver's answer
// goes to a source that may be forged: it holds the answers alone, no
// additional records, and so is at most about twice its query's size
// (a PTR query's answer with its SRV, TXT and address records was seven
// times it); a resolver asks again for what it needs.
func TestLegacyAnswersAreAtMostTwiceTheirQuery(t *testing.T) {
	for _, qs := range [][]dns.Question{
		{{Name: "_osc._udp.local.", Qtype: dns.TypePTR, Qclass: dns.ClassINET}},
		{{Name: "_oscjson._tcp.local.", Qtype: dns.TypePTR, Qclass: dns.ClassINET}},
		{{Name: "_services._dns-sd._udp.local.", Qtype: dns.TypePTR, Qclass: dns.ClassINET}},
		{{Name: "gloved-lab-oscjson.local.", Qtype: dns.TypeA, Qclass: dns.ClassINET}},
		{
			{Name: "_osc._udp.local.", Qtype: dns.TypeANY, Qclass: dns.ClassINET},
			{Name: "_oscjson._tcp.local.", Qtype: dns.TypeANY, Qclass: dns.ClassINET},
			{Name: "lab._osc._udp.local.", Qtype: dns.TypeANY, Qclass: dns.ClassINET},
			{Name: "lab._oscjson._tcp.local.", Qtype: dns.TypeANY, Qclass: dns.ClassINET},
			{Name: "gloved-lab-osc.local.", Qtype: dns.TypeANY, Qclass: dns.ClassINET},
			{Name: "gloved-lab-oscjson.local.", Qtype: dns.TypeANY, Qclass: dns.ClassINET},
		},
	} {
		r, now, _ := running(t)
		q := new(dns.Msg)
		q.Question = qs
		out := r.answer(q, from(&lo, "127.0.0.1:40000"), now)
		if len(out) != 1 {
			t.Fatalf("%v: %d answers", qs, len(out))
		}
		asked, err := q.Pack()
		if err != nil {
			t.Fatal(err)
		}
		got, err := pack(out[0].msg)
		if err != nil {
			t.Fatal(err)
		}
		if len(out[0].msg.Extra) != 0 || len(got) > 2*len(asked)+16 {
			t.Errorf("%s and %d more: a query of %d bytes answered in %d (%.1fx), %d additional records",
				qs[0].Name, len(qs)-1, len(asked), len(got), float64(len(got))/float64(len(asked)), len(out[0].msg.Extra))
		}
		t.Logf("%s and %d more: %d bytes, answered in %d (%.1fx)", qs[0].Name, len(qs)-1, len(asked), len(got), float64(len(got))/float64(len(asked)))
	}
}
