package mdns

import (
	"fmt"
	"math/rand/v2"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/miekg/dns"
)

// The responder's timing (RFC 6762 sections 8.1, 8.3 and 6).
const (
	probeEvery    = 250 * time.Millisecond
	probes        = 3
	announceEvery = time.Second
	announcements = 2
	lostTieWait   = time.Second // defer after losing a simultaneous probe
	maxRenames    = 100         // "gloved (100)" and then it gives up for a while:
	// retryFirst after the first time, twice as long each time after, at
	// most retryLast; the storm that took every name may have passed.
	retryFirst = time.Minute
	retryLast  = time.Hour
	// RFC 6762 section 8.1: after 15 conflicts within 10 seconds, wait 5
	// seconds before each further probe (until 10 s pass without one).
	conflictBurst  = 15
	conflictWindow = 10 * time.Second
	conflictWait   = 5 * time.Second
	sameRecordGap  = time.Second // a record is multicast on an interface at most once a second...
	defenseGap     = probeEvery  // ...but defended against a probe every 250 ms
	maxPerSecond   = 20          // response packets a second on one interface, whatever is asked
	legacyTTL      = 10          // RFC 6762 section 6.7
	// Unicast answers to legacy resolvers: to one address, and to how
	// many addresses, a second.
	legacyPerSource = 2
	legacySources   = maxPerSecond
	burstWindow     = time.Second // the window of maxPerSecond
)

// responder states.
const (
	probing = iota
	announcing
	announced
	// unnamed: every name tried is taken; nothing is sent or answered,
	// and no goodbye (the names are other hosts'), until next, when it
	// probes for its own name again.
	unnamed
)

// outgoing is a message to send through an interface: multicast, or to
// one address.
type outgoing struct {
	msg   *dns.Msg
	iface *Interface
	to    netip.AddrPort // invalid: the group
}

// responder advertises one instance name's services and defends it
// (RFC 6762 sections 6 to 10): it probes for the name, takes the next
// ("gloved (2)") when another host holds it, announces, answers queries
// on the interfaces where each service is reached, and says goodbye.
type responder struct {
	base     string
	n        int // the name is renamed(base, n)
	name     string
	services []Service
	ifaces   []*Interface

	state int
	sent  int // probes or announcements sent in this state
	next  time.Time

	lastSent map[string]time.Time // by interface index and record key
	burst    map[int][]time.Time  // response times by interface index
	legacy   legacyLimit          // unicast answers by destination
	// conflictRun counts the conflicts met, each within conflictWindow of
	// the one before, the last at lastConflict.
	conflictRun  int
	lastConflict time.Time
	// gaveUp counts the times every name was taken, since the last
	// announcement: the wait before trying again doubles with it.
	gaveUp int

	// onName hears the name once it is announced, and every rename;
	// onFail that no name is left to try.
	onName func(string)
	onFail func(error)
	stats  *Stats
	log    func(msg string, kv ...any)
}

func newResponder(base string, services []Service, ifaces []*Interface, now time.Time, stats *Stats) *responder {
	r := &responder{base: base, n: 1, name: base, services: services, ifaces: ifaces,
		lastSent: map[string]time.Time{}, burst: map[int][]time.Time{}, legacy: legacyLimit{stats: stats}, stats: stats}
	r.next = now.Add(time.Duration(rand.Int64N(int64(probeEvery)))) // RFC 6762 section 8.1: 0-250 ms
	return r
}

// on returns the records of the instance on interface i: one set per
// service reached through i.
func (r *responder) on(i *Interface, ttl uint32) []records {
	var out []records
	for _, s := range r.services {
		if len(s.On) > 0 && !slices.Contains(s.On, i.Name) {
			continue
		}
		if addr, ok := i.AddrFor(s.Listen); ok {
			out = append(out, recordsOf(r.name, s, addr, ttl))
		}
	}
	return out
}

// tick sends what is due at now: the next probe or announcement.
func (r *responder) tick(now time.Time) []outgoing {
	if r.state == announced || now.Before(r.next) {
		return nil
	}
	if r.state == unnamed { // the wait after giving up is over
		r.n, r.name, r.conflictRun = 1, r.base, 0
		r.logf("mdns: trying the name again", "name", r.name)
		r.reprobe(now, 0)
	}
	var out []outgoing
	switch r.state {
	case probing:
		if r.sent == probes {
			r.state, r.sent = announcing, 0
			return r.tick(now)
		}
		for _, i := range r.ifaces {
			if m := r.probe(i); m != nil {
				out = append(out, outgoing{msg: m, iface: i})
			}
		}
		r.next = now.Add(probeEvery)
	case announcing:
		for _, i := range r.ifaces {
			if rs := r.on(i, TTL); len(rs) > 0 {
				out = append(out, outgoing{msg: response(rs, nil), iface: i})
				r.mark(i, rs, now)
			}
		}
		if r.sent == 0 {
			r.gaveUp = 0
			if r.onName != nil {
				r.onName(r.name)
			}
		}
		r.next = now.Add(announceEvery)
		if r.sent+1 == announcements {
			r.state = announced
		}
	}
	r.sent++
	return out
}

// due is when tick next has something to send (zero: nothing).
func (r *responder) due() time.Time {
	if r.state == announced {
		return time.Time{}
	}
	return r.next
}

// probe is the probe for the instance's names on i: a question of type
// ANY for each name it would own, its records in the authority section.
func (r *responder) probe(i *Interface) *dns.Msg {
	rs := r.on(i, TTL)
	if len(rs) == 0 {
		return nil
	}
	m := new(dns.Msg)
	seen := map[string]bool{}
	for _, set := range rs {
		for _, rr := range set.unique() {
			name := rr.Header().Name
			if !seen[strings.ToLower(name)] {
				seen[strings.ToLower(name)] = true
				m.Question = append(m.Question, dns.Question{Name: name, Qtype: dns.TypeANY, Qclass: dns.ClassINET})
			}
			m.Ns = append(m.Ns, rr)
		}
	}
	return m
}

// response is the message that advertises sets in VRChat's layout: the
// PTR records (and answers) in the answer section, SRV, TXT and address
// in the additional section. Older VRChat looked for SRV records only
// there (vrc-oscquery-lib#58).
func response(sets []records, answers []dns.RR) *dns.Msg {
	m := new(dns.Msg)
	m.Response, m.Authoritative = true, true
	if answers != nil {
		m.Answer = answers
		return m
	}
	for _, s := range sets {
		m.Answer = append(m.Answer, s.ptr)
		m.Extra = append(m.Extra, s.srv, s.txt, s.a)
	}
	return m
}

// goodbye returns the messages that withdraw every record (TTL 0).
func (r *responder) goodbye() []outgoing {
	if r.state == probing || r.state == unnamed {
		return nil // nothing was announced under this name, or it is another's
	}
	var out []outgoing
	for _, i := range r.ifaces {
		if rs := r.on(i, 0); len(rs) > 0 {
			out = append(out, outgoing{msg: response(rs, nil), iface: i})
		}
	}
	return out
}

// owned returns the instance's unique records named name, on every
// interface (none: the name is not the instance's).
func (r *responder) owned(name string) []dns.RR {
	var out []dns.RR
	for _, i := range r.ifaces {
		for _, set := range r.on(i, TTL) {
			for _, rr := range set.unique() {
				if sameName(rr.Header().Name, name) {
					out = append(out, rr)
				}
			}
		}
	}
	return out
}

// conflicts reports whether rr, another host's, contradicts one of the
// instance's unique records: the same name and type with other data.
// A goodbye is no conflict.
func (r *responder) conflicts(rr dns.RR) bool {
	if rr.Header().Ttl == 0 || rr.Header().Class&^cacheFlush != dns.ClassINET {
		return false
	}
	mine := r.owned(rr.Header().Name)
	if len(mine) == 0 {
		return false
	}
	k := key(rr)
	for _, m := range mine {
		if key(m) == k {
			return false
		}
	}
	for _, m := range mine {
		if m.Header().Rrtype == rr.Header().Rrtype {
			return true
		}
	}
	return false
}

// rename takes the next name and probes for it; after maxRenames names
// it gives up for a while: it neither answers nor says goodbye for names
// that are other hosts', and tries its own name again after retryFirst,
// then twice as long each time, up to retryLast.
func (r *responder) rename(now time.Time) {
	r.n++
	r.stats.Renames.Add(1)
	if r.n > maxRenames {
		wait := min(retryFirst<<min(r.gaveUp, 16), retryLast)
		r.gaveUp++
		r.state, r.next = unnamed, now.Add(wait)
		err := fmt.Errorf("mdns: no free name after %d tries (%q to %q are taken on the network); trying again in %v", maxRenames, r.base, r.name, wait)
		r.logf("mdns: no free name for the service; it is not advertised for now", "tried", maxRenames, "name", r.base, "last", r.name, "retry_in", wait.String())
		if r.onFail != nil {
			r.onFail(err)
		}
		return
	}
	old := r.name
	r.name = renamed(r.base, r.n)
	r.logf("mdns: the name is taken on the network; trying another", "name", old, "next", r.name)
	r.reprobe(now, 0)
}

// conflict counts a conflict at now: a run of them, each within
// conflictWindow of the last, makes probes wait (reprobe).
func (r *responder) conflict(now time.Time) {
	r.stats.Conflicts.Add(1)
	if now.Sub(r.lastConflict) > conflictWindow {
		r.conflictRun = 0
	}
	r.conflictRun++
	r.lastConflict = now
}

// reprobe starts probing again after wait, or after conflictWait once
// conflictBurst conflicts came within conflictWindow, for as long as they
// keep coming (RFC 6762 section 8.1: a host that keeps meeting
// conflicts, against a misbehaving host or for a name everyone wants,
// must not flood the network with probes).
func (r *responder) reprobe(now time.Time, wait time.Duration) {
	if r.conflictRun >= conflictBurst {
		wait = max(wait, conflictWait)
	}
	r.state, r.sent = probing, 0
	r.next = now.Add(wait)
}

// handle reads a message another host sent on rcv's interface and
// returns what to answer.
func (r *responder) handle(m *dns.Msg, rcv received, now time.Time) []outgoing {
	if r.state == unnamed {
		return nil
	}
	if m.Response {
		r.checkResponse(m, now)
		return nil
	}
	if len(m.Ns) > 0 && r.state == probing {
		r.tiebreak(m, rcv.iface, now)
	}
	return r.answer(m, rcv, now)
}

// checkResponse renames on a conflicting response while probing, and
// probes again on one after the name was announced (RFC 6762 section 9).
func (r *responder) checkResponse(m *dns.Msg, now time.Time) {
	for _, sec := range [][]dns.RR{m.Answer, m.Ns, m.Extra} {
		for _, rr := range sec {
			if !r.conflicts(rr) {
				continue
			}
			r.conflict(now)
			if r.state == probing {
				r.rename(now)
			} else {
				r.reprobe(now, 0)
			}
			return
		}
	}
}

// tiebreak settles a simultaneous probe, received on interface i, for
// one of the instance's names: the lexicographically later records win
// (RFC 6762 section 8.2); the loser waits a second and probes again, and
// then meets the winner's answers.
func (r *responder) tiebreak(m *dns.Msg, i *Interface, now time.Time) {
	theirs := map[string][]dns.RR{}
	for _, rr := range m.Ns {
		n := strings.ToLower(rr.Header().Name)
		theirs[n] = append(theirs[n], rr)
	}
	for _, set := range r.on(i, TTL) {
		ours := map[string][]dns.RR{}
		for _, rr := range set.unique() {
			n := strings.ToLower(rr.Header().Name)
			ours[n] = append(ours[n], rr)
		}
		for n, o := range ours {
			if t, ok := theirs[n]; ok && later(o, t) < 0 {
				r.conflict(now)
				r.reprobe(now, lostTieWait)
				return
			}
		}
	}
}

func (r *responder) logf(msg string, kv ...any) {
	if r.log != nil {
		r.log(msg, kv...)
	}
}
