package mdns

import (
	"net"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/miekg/dns"
)

// The browser's timing (RFC 6762 section 5.2).
const (
	firstInterval = time.Second
	maxInterval   = time.Hour
	resolveTries  = 3
	resolveAgain  = time.Minute // after resolveTries unanswered asks
	maxKnown      = 24          // known answers in one query, to stay in one datagram
)

// Found is a service instance a browser found: its name and type, where
// its SRV record points, and the one address chosen for it.
type Found struct {
	Instance string // "VRChat-Client-A1B2C3"
	Type     string // "_osc._udp"
	Host     string
	Addr     netip.AddrPort
	Text     []string
	// Interface is the interface its records came through; Local says
	// they were sent from this machine.
	Interface string
	Local     bool
}

// resolving counts the asks for a name a found instance lacks.
type resolving struct {
	last  time.Time
	tries int
}

// browser looks for service instances of some types: it asks for them
// (RFC 6762 section 5.2: at once, then at intervals doubling from a
// second to an hour, each time listing what it knows), keeps their
// records until their TTL runs out (asking again at 80 to 95 percent of
// it), asks for the SRV, TXT and address records an answer lacked
// (HOSCY#42: an _osc._udp answer without its SRV), and reports each
// instance found, moved and lost.
type browser struct {
	types    []string // service names: "_osc._udp.local."
	c        *cache
	interval time.Duration
	next     time.Time
	asking   map[string]*resolving // by name and type asked for
	reported map[string]Found      // by instance name, lower case
	skipped  map[string]bool
	// isLocal reports whether an address is this machine's.
	isLocal func(netip.Addr) bool
	onFound func(Found)
	onLost  func(Found)
	log     func(msg string, kv ...any)
}

func newBrowser(types []string, now time.Time) *browser {
	b := &browser{c: newCache(), interval: firstInterval, next: now.Add(20 * time.Millisecond),
		asking: map[string]*resolving{}, reported: map[string]Found{}, skipped: map[string]bool{}, isLocal: localAddr}
	for _, t := range types {
		b.types = append(b.types, serviceName(t))
	}
	return b
}

// handle takes another host's message received on rcv's interface.
func (b *browser) handle(m *dns.Msg, rcv received, now time.Time) {
	if !m.Response {
		return
	}
	local := rcv.iface.Loopback || b.isLocal(rcv.src.Addr())
	changed := false
	for _, sec := range [][]dns.RR{m.Answer, m.Ns, m.Extra} {
		for _, rr := range sec {
			if b.relevant(rr) && b.c.add(rr, now, rcv.iface, local) {
				changed = true
			}
		}
	}
	if changed {
		b.evaluate(now)
	}
}

// relevant reports whether rr is one a browser keeps: a PTR to an
// instance of a browsed type, such an instance's SRV or TXT, or an IPv4
// address.
func (b *browser) relevant(rr dns.RR) bool {
	h := rr.Header()
	if h.Class&^cacheFlush != dns.ClassINET {
		return false
	}
	switch h.Rrtype {
	case dns.TypePTR:
		return slices.ContainsFunc(b.types, func(t string) bool { return sameName(h.Name, t) })
	case dns.TypeSRV, dns.TypeTXT:
		return slices.ContainsFunc(b.types, func(t string) bool { return under(h.Name, t) })
	case dns.TypeA:
		return true
	}
	return false
}

// tick returns the queries due at now (to send on every interface) and
// reports what expired.
func (b *browser) tick(now time.Time) *dns.Msg {
	if b.c.expire(now) {
		b.evaluate(now)
	}
	q := new(dns.Msg)
	if !now.Before(b.next) {
		for _, t := range b.types {
			q.Question = append(q.Question, dns.Question{Name: t, Qtype: dns.TypePTR, Qclass: dns.ClassINET})
			q.Answer = append(q.Answer, b.c.known(t, dns.TypePTR, now)...)
		}
		b.next = now.Add(b.interval)
		b.interval = min(2*b.interval, maxInterval)
	}
	for _, rr := range b.c.due(now) {
		b.ask(q, rr.Header().Name, rr.Header().Rrtype)
	}
	b.resolve(q, now)
	if len(q.Question) == 0 {
		return nil
	}
	if len(q.Answer) > maxKnown {
		q.Answer = q.Answer[:maxKnown]
	}
	return q
}

// due is when tick next has something to do.
func (b *browser) due() time.Time {
	t := earliest(b.next, b.c.next())
	for _, r := range b.asking {
		t = earliest(t, r.again())
	}
	return t
}

// again is when a name asked for tries times is asked for again: after
// 1, 2 and 4 seconds, then after resolveAgain.
func (r *resolving) again() time.Time {
	if r.tries >= resolveTries {
		return r.last.Add(resolveAgain)
	}
	return r.last.Add(time.Second << (r.tries - 1))
}

// ask adds a question for name and t to q, once.
func (b *browser) ask(q *dns.Msg, name string, t uint16) {
	for _, x := range q.Question {
		if x.Qtype == t && sameName(x.Name, name) {
			return
		}
	}
	q.Question = append(q.Question, dns.Question{Name: name, Qtype: t, Qclass: dns.ClassINET})
}

// resolve asks for what the instances found so far lack: the SRV and TXT
// of an instance known by its PTR alone, the address of an SRV's host.
func (b *browser) resolve(q *dns.Msg, now time.Time) {
	wanted := map[string]bool{}
	for _, t := range b.types {
		for _, p := range b.c.get(t, dns.TypePTR, now) {
			inst := p.rr.(*dns.PTR).Ptr
			srv := latest(b.c.get(inst, dns.TypeSRV, now))
			if srv == nil {
				wanted[strings.ToLower(inst)+"/SRV"] = true
				continue
			}
			if host := srv.rr.(*dns.SRV).Target; len(b.c.get(host, dns.TypeA, now)) == 0 {
				wanted[strings.ToLower(host)+"/A"] = true
			}
		}
	}
	for k := range b.asking {
		if !wanted[k] {
			delete(b.asking, k)
		}
	}
	for k := range wanted {
		r := b.asking[k]
		if r == nil {
			r = &resolving{}
			b.asking[k] = r
		} else {
			if now.Before(r.again()) {
				continue
			}
			if r.tries >= resolveTries {
				r.tries = 0
			}
		}
		r.last, r.tries = now, r.tries+1
		name, typ, _ := strings.Cut(k, "/")
		if typ == "SRV" {
			b.ask(q, name, dns.TypeSRV)
			b.ask(q, name, dns.TypeTXT)
		} else {
			b.ask(q, name, dns.TypeA)
		}
	}
}

// evaluate reports the instances found, moved and lost since the last
// call.
func (b *browser) evaluate(now time.Time) {
	seen := map[string]bool{}
	for _, t := range b.types {
		for _, p := range b.c.get(t, dns.TypePTR, now) {
			f, ok := b.instance(p.rr.(*dns.PTR).Ptr, now)
			if !ok {
				continue
			}
			k := strings.ToLower(f.Instance + "." + f.Type)
			seen[k] = true
			if old, was := b.reported[k]; !was || old.Addr != f.Addr {
				b.reported[k] = f
				if b.onFound != nil {
					b.onFound(f)
				}
			}
		}
	}
	for k, f := range b.reported {
		if !seen[k] {
			delete(b.reported, k)
			if b.onLost != nil {
				b.onLost(f)
			}
		}
	}
}

// instance resolves an instance's name to its address, if its records
// are all known. A loopback address sent by another machine is not this
// machine's loopback: VRChat advertises 127.0.0.1 on every network
// (vrc-oscquery-lib#28), and another machine's VRChat must not be taken
// for one on this machine.
func (b *browser) instance(name string, now time.Time) (Found, bool) {
	label, rest := firstLabel(name)
	f := Found{Instance: label, Type: strings.TrimSuffix(strings.TrimSuffix(rest, domain), ".")}
	srv := latest(b.c.get(name, dns.TypeSRV, now))
	if srv == nil {
		return f, false
	}
	s := srv.rr.(*dns.SRV)
	f.Host = s.Target
	if txt := latest(b.c.get(name, dns.TypeTXT, now)); txt != nil {
		f.Text = txt.rr.(*dns.TXT).Txt
	}
	var best *entry
	for _, e := range b.c.get(s.Target, dns.TypeA, now) {
		ip, _ := netip.AddrFromSlice(e.rr.(*dns.A).A.To4())
		if ip.IsLoopback() && !e.local {
			if k := strings.ToLower(name); !b.skipped[k] {
				b.skipped[k] = true
				b.logf("mdns: a service on another machine advertises a loopback address, which only that machine reaches; it is left out",
					"instance", label, "address", ip.String(), "interface", e.iface.Name)
			}
			continue
		}
		if best == nil || better(e, best, srv.iface) {
			best = e
		}
	}
	if best == nil {
		return f, false
	}
	ip, _ := netip.AddrFromSlice(best.rr.(*dns.A).A.To4())
	f.Addr, f.Interface, f.Local = netip.AddrPortFrom(ip, s.Port), best.iface.Name, best.local
	return f, true
}

// better reports whether address record a is preferred to b: one heard on
// the interface the SRV came through, then the most recent, then the
// lower address (a stable choice).
func better(a, b *entry, via *Interface) bool {
	if (a.iface == via) != (b.iface == via) {
		return a.iface == via
	}
	if !a.received.Equal(b.received) {
		return a.received.After(b.received)
	}
	return a.rr.(*dns.A).A.String() < b.rr.(*dns.A).A.String()
}

// latest returns the most recently received of es, or nil.
func latest(es []*entry) *entry {
	var best *entry
	for _, e := range es {
		if best == nil || e.received.After(best.received) {
			best = e
		}
	}
	return best
}

func (b *browser) logf(msg string, kv ...any) {
	if b.log != nil {
		b.log(msg, kv...)
	}
}

// localAddr reports whether a is an address of one of this machine's
// interfaces (any of them, not only those mDNS runs on).
func localAddr(a netip.Addr) bool {
	a = a.Unmap()
	if a.IsLoopback() {
		return true
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return false
	}
	for _, x := range addrs {
		if n, ok := x.(*net.IPNet); ok {
			if ip, ok := netip.AddrFromSlice(n.IP); ok && ip.Unmap() == a {
				return true
			}
		}
	}
	return false
}
