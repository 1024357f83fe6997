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
//
// It keeps only what it needs, whatever the network sends: the PTR, SRV
// and TXT records of the instances of its types that match, and the
// address records of the hosts their SRV records name. A service's
// address is taken only where sending to it cannot be turned against a
// third host (see usable).
type browser struct {
	types []string // service names: "_osc._udp.local."
	// match, if set, accepts the instance names to look for.
	match func(instance string) bool
	// trusted are addresses beyond the link a service may be at.
	trusted  []netip.Prefix
	c        *cache
	interval time.Duration
	next     time.Time
	asking   map[string]*resolving // by name and type asked for
	reported map[string]Found      // by instance name, lower case
	// refused are the addresses left out, by instance name (lower
	// case), each logged once; an instance whose PTR is gone is dropped.
	refused map[string]netip.Addr
	// isLocal reports whether an address is this machine's.
	isLocal func(netip.Addr) bool
	onFound func(Found)
	onLost  func(Found)
	log     func(msg string, kv ...any)
	stats   *Stats
}

func newBrowser(types []string, now time.Time) *browser {
	b := &browser{c: newCache(), interval: firstInterval, next: now.Add(20 * time.Millisecond),
		asking: map[string]*resolving{}, reported: map[string]Found{}, refused: map[string]netip.Addr{},
		isLocal: localAddr, stats: new(Stats)}
	for _, t := range types {
		b.types = append(b.types, serviceName(t))
	}
	b.c.keep = b.keep
	return b
}

// handle takes another host's message received on rcv's interface:
// records of names and services first, then the addresses, which are
// kept only for hosts an SRV record names.
func (b *browser) handle(m *dns.Msg, rcv received, now time.Time) {
	if !m.Response {
		return
	}
	src := rcv.src.Addr().Unmap()
	local, knowLocal := false, false
	changed := false
	for _, addrs := range []bool{false, true} {
		for _, sec := range [][]dns.RR{m.Answer, m.Ns, m.Extra} {
			for _, rr := range sec {
				if (rr.Header().Rrtype == dns.TypeA) != addrs || !b.wanted(rr) {
					continue
				}
				if !knowLocal { // asked only of packets that hold something wanted
					local, knowLocal = rcv.iface.Loopback || rcv.iface.Holds(src) || b.isLocal(src), true
				}
				if b.c.add(rr, now, rcv.iface, src, local) {
					changed = true
				}
			}
		}
	}
	if changed {
		b.evaluate(now)
	}
}

// wanted reports whether rr is one a browser keeps: a PTR to an instance
// of a browsed type that matches, such an instance's SRV or TXT, or the
// address of a host a cached SRV names.
func (b *browser) wanted(rr dns.RR) bool {
	h := rr.Header()
	if h.Class&^cacheFlush != dns.ClassINET {
		return false
	}
	switch h.Rrtype {
	case dns.TypePTR:
		return b.browsed(h.Name) && under(rr.(*dns.PTR).Ptr, h.Name) && b.matches(rr.(*dns.PTR).Ptr)
	case dns.TypeSRV, dns.TypeTXT:
		_, rest := firstLabel(h.Name)
		return b.browsed(rest) && b.matches(h.Name)
	case dns.TypeA:
		return b.c.targets[strings.ToLower(h.Name)] > 0
	}
	return false
}

// keep reports whether a cached record is still wanted: an address
// whose host no SRV names any longer is not.
func (b *browser) keep(e *entry) bool {
	if e.rr.Header().Rrtype != dns.TypeA {
		return true // the types and the match do not change
	}
	return b.c.targets[strings.ToLower(e.rr.Header().Name)] > 0
}

// browsed reports whether name is one of the service types browsed.
func (b *browser) browsed(name string) bool {
	return slices.ContainsFunc(b.types, func(t string) bool { return sameName(name, t) })
}

// matches reports whether the instance of a full instance name is one to
// look for.
func (b *browser) matches(instance string) bool {
	if b.match == nil {
		return true
	}
	label, _ := firstLabel(instance)
	return b.match(label)
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
	for _, e := range b.c.due(now) {
		b.ask(q, e.rr.Header().Name, e.rr.Header().Rrtype)
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
	present := map[string]bool{}
	for _, t := range b.types {
		for _, p := range b.c.get(t, dns.TypePTR, now) {
			name := p.rr.(*dns.PTR).Ptr
			present[strings.ToLower(name)] = true
			f, ok := b.instance(name, now)
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
	for k := range b.refused {
		if !present[k] {
			delete(b.refused, k)
		}
	}
}

// instance resolves an instance's name to its address, if its records
// are all known and one of its addresses is usable.
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
		ip := addrOf(e)
		if why := b.usable(e, ip); why != "" {
			b.refuse(name, label, ip, e, why)
			continue
		}
		if best == nil || better(e, best, srv.iface) {
			best = e
		}
	}
	if best == nil {
		return f, false
	}
	f.Addr, f.Interface, f.Local = netip.AddrPortFrom(addrOf(best), s.Port), best.iface.Name, best.local
	return f, true
}

// addrOf is an address record's address.
func addrOf(e *entry) netip.Addr {
	ip, _ := netip.AddrFromSlice(e.rr.(*dns.A).A.To4())
	return ip
}

// usable says why a service's address ip, from the record e, is not to
// be sent to, or "" if it is. Anyone on a link can advertise a service at
// any address, and gloved streams to what it finds: an address is taken
// only if it is on the link the record came through (one of the
// interface's networks, not their network or broadcast address), or the
// sender's own, or trusted. A loopback address is taken only from this
// machine: VRChat advertises 127.0.0.1 on every network
// (vrc-oscquery-lib#28), and another machine's VRChat must not be taken
// for one on this machine.
func (b *browser) usable(e *entry, ip netip.Addr) string {
	switch {
	case ip.IsLoopback():
		if e.local {
			return ""
		}
		return "a service on another machine advertises a loopback address, which only that machine reaches"
	case !ip.IsValid() || ip.IsUnspecified() || ip.IsMulticast() || ip == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return "a service advertises an address that is no host's (multicast, broadcast or unspecified)"
	case ip == e.src || hostIn(e.iface.Prefixes, ip) || hostIn(b.trusted, ip):
		return ""
	}
	return "a service advertises an address neither on the link it was heard on nor its sender's (sending there could reach a third host), and not trusted"
}

// hostIn reports whether ip is a host of one of the prefixes: inside one,
// and not its network or broadcast address (in a prefix of 30 bits or
// fewer), unless the prefix is that one address.
func hostIn(prefixes []netip.Prefix, ip netip.Addr) bool {
	for _, p := range prefixes {
		if p.Addr().Is4In6() && p.Bits() >= 96 {
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		if p = p.Masked(); !p.Addr().Is4() || !p.Contains(ip) {
			continue
		}
		if p.IsSingleIP() || p.Bits() > 30 || ip != p.Addr() && ip != lastAddr(p) {
			return true
		}
	}
	return false
}

// lastAddr is the last address of p (its broadcast address).
func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().As4()
	for i := p.Bits(); i < 32; i++ {
		b[i/8] |= 1 << (7 - i%8)
	}
	return netip.AddrFrom4(b)
}

// refuse logs, once for each instance and address, and counts an address
// left out.
func (b *browser) refuse(name, label string, ip netip.Addr, e *entry, why string) {
	k := strings.ToLower(name)
	if old, ok := b.refused[k]; ok && old == ip {
		return
	}
	b.refused[k] = ip
	b.stats.Refused.Add(1)
	b.logf("mdns: "+why+"; it is left out", "instance", label, "address", ip.String(), "from", e.src.String(), "interface", e.iface.Name)
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
