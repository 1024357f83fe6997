package mdns

import (
	"net/netip"
	"strings"
	"time"

	"github.com/miekg/dns"
)

// answer returns the response to query m received on rcv's interface
// (RFC 6762 sections 6 and 7): the records asked for that the instance
// holds there, less those the asker already knows with at least half
// their TTL left and those multicast on that interface within the last
// second (250 ms when defending against a probe); SRV, TXT and address
// records as additional records. A legacy resolver (a source port other
// than 5353) gets a unicast DNS answer of the answers alone, at most
// legacyPerSource a second to one address: its source address may be
// forged, and the answer is larger than the query. Every response counts against the interface's
// maxPerSecond. Questions asking for a unicast
// answer get a multicast one: port 5353 is shared (avahi-daemon, another
// gloved), and a unicast datagram to it reaches only one of the sockets
// bound there, not necessarily the asker's.
func (r *responder) answer(m *dns.Msg, rcv received, now time.Time) []outgoing {
	if r.state == probing || r.state == unnamed || m.Opcode != dns.OpcodeQuery || m.Rcode != 0 || len(m.Question) == 0 {
		return nil
	}
	sets := r.on(rcv.iface, TTL)
	if len(sets) == 0 {
		return nil
	}
	var ans, extra []dns.RR
	for _, q := range m.Question {
		if c := q.Qclass &^ cacheFlush; c != dns.ClassINET && c != dns.ClassANY {
			continue
		}
		a, e := answers(sets, q)
		ans, extra = append(ans, a...), append(extra, e...)
	}
	ans = unique(knownAnswers(ans, m.Answer))
	if len(ans) == 0 {
		return nil
	}
	legacy := rcv.src.Port() != Port
	if legacy {
		if !r.legacy.allow(rcv.src.Addr(), now) || !r.allowBurst(rcv.iface, now) {
			return nil
		}
	} else {
		gap := sameRecordGap
		if len(m.Ns) > 0 {
			gap = defenseGap
		}
		if ans = r.fresh(rcv.iface, ans, now, gap); len(ans) == 0 || !r.allowBurst(rcv.iface, now) {
			return nil
		}
	}
	extra = unique(without(extra, ans))
	out := new(dns.Msg)
	out.Response, out.Authoritative = true, true
	out.Answer, out.Extra = ans, extra
	r.stats.Answered.Add(1)
	if legacy {
		// The answers alone: the source may be forged, and the
		// additional records (SRV, TXT, address) would make the answer
		// to a PTR query seven times its size; a resolver asks for them.
		out.Id, out.Question, out.Extra = m.Id, m.Question, nil
		for _, rr := range out.Answer {
			h := rr.Header()
			h.Class &^= cacheFlush
			h.Ttl = min(h.Ttl, legacyTTL)
		}
		return []outgoing{{msg: out, iface: rcv.iface, to: rcv.src}}
	}
	r.markRRs(rcv.iface, append(out.Answer, out.Extra...), now)
	return []outgoing{{msg: out, iface: rcv.iface}}
}

// answers returns the records of sets that answer q, and the additional
// records that go with them (RFC 6763 section 12).
func answers(sets []records, q dns.Question) (ans, extra []dns.RR) {
	all := q.Qtype == dns.TypeANY
	for _, s := range sets {
		switch name := q.Name; {
		case sameName(name, services) && (all || q.Qtype == dns.TypePTR):
			ans = append(ans, s.enum)
		case sameName(name, s.ptr.Header().Name) && (all || q.Qtype == dns.TypePTR):
			ans = append(ans, s.ptr)
			extra = append(extra, s.srv, s.txt, s.a)
		case sameName(name, s.srv.Header().Name):
			if all || q.Qtype == dns.TypeSRV {
				ans = append(ans, s.srv)
				extra = append(extra, s.a)
			}
			if all || q.Qtype == dns.TypeTXT {
				ans = append(ans, s.txt)
			}
		case sameName(name, s.a.Header().Name) && (all || q.Qtype == dns.TypeA):
			ans = append(ans, s.a)
		}
	}
	return ans, extra
}

// knownAnswers drops from ans the records the asker listed as known
// (RFC 6762 section 7.1) with at least half their TTL left.
func knownAnswers(ans, known []dns.RR) []dns.RR {
	if len(known) == 0 {
		return ans
	}
	have := map[string]bool{}
	for _, k := range known {
		if k.Header().Ttl >= TTL/2 {
			have[key(k)] = true
		}
	}
	out := ans[:0:0]
	for _, a := range ans {
		if !have[key(a)] {
			out = append(out, a)
		}
	}
	return out
}

// unique drops repeated records.
func unique(rs []dns.RR) []dns.RR {
	seen := map[string]bool{}
	out := rs[:0:0]
	for _, rr := range rs {
		if k := key(rr); !seen[k] {
			seen[k] = true
			out = append(out, rr)
		}
	}
	return out
}

// without drops from rs those in minus.
func without(rs, minus []dns.RR) []dns.RR {
	drop := map[string]bool{}
	for _, m := range minus {
		drop[key(m)] = true
	}
	out := rs[:0:0]
	for _, rr := range rs {
		if !drop[key(rr)] {
			out = append(out, rr)
		}
	}
	return out
}

// fresh keeps the records not multicast on i within gap.
func (r *responder) fresh(i *Interface, rs []dns.RR, now time.Time, gap time.Duration) []dns.RR {
	out := rs[:0:0]
	for _, rr := range rs {
		if t, ok := r.lastSent[sentKey(i, rr)]; ok && now.Sub(t) < gap {
			r.stats.Limited.Add(1)
			continue
		}
		out = append(out, rr)
	}
	return out
}

// allowBurst reports whether another response may go out on i: at most
// maxPerSecond a second, so that a flood of queries cannot make gloved
// flood the network (OyasumiVR#80).
func (r *responder) allowBurst(i *Interface, now time.Time) bool {
	times := r.burst[i.Index]
	k := 0
	for _, t := range times {
		if now.Sub(t) < burstWindow {
			times[k] = t
			k++
		}
	}
	times = times[:k]
	if len(times) >= maxPerSecond {
		r.burst[i.Index] = times
		r.stats.Limited.Add(1)
		return false
	}
	r.burst[i.Index] = append(times, now)
	return true
}

// legacyLimit bounds the unicast answers to legacy resolvers by
// destination, in one-second windows: at most legacyPerSource to one
// address, and to at most legacySources addresses.
type legacyLimit struct {
	window time.Time
	counts map[netip.Addr]int
	stats  *Stats
}

// allow reports whether one more answer may go to dst at now.
func (l *legacyLimit) allow(dst netip.Addr, now time.Time) bool {
	if l.counts == nil || now.Sub(l.window) >= time.Second || now.Before(l.window) {
		l.window, l.counts = now, map[netip.Addr]int{}
	}
	n, known := l.counts[dst]
	if n >= legacyPerSource || !known && len(l.counts) >= legacySources {
		l.stats.Limited.Add(1)
		return false
	}
	l.counts[dst] = n + 1
	return true
}

// mark records that the sets were multicast on i at now.
func (r *responder) mark(i *Interface, sets []records, now time.Time) {
	for _, s := range sets {
		r.markRRs(i, []dns.RR{s.ptr, s.srv, s.txt, s.a}, now)
	}
}

func (r *responder) markRRs(i *Interface, rs []dns.RR, now time.Time) {
	for _, rr := range rs {
		r.lastSent[sentKey(i, rr)] = now
	}
	if len(r.lastSent) > 1024 { // names of past renames
		for k, t := range r.lastSent {
			if now.Sub(t) > time.Minute {
				delete(r.lastSent, k)
			}
		}
	}
}

func sentKey(i *Interface, rr dns.RR) string {
	var b strings.Builder
	b.WriteString(i.Name)
	b.WriteByte('|')
	b.WriteString(key(rr))
	return b.String()
}
