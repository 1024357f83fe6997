package mdns

import (
	"encoding/binary"
	"math/rand/v2"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/miekg/dns"
)

// Bounds of the browser's cache, whatever others send.
const (
	maxCached = 512
	// maxTTL caps a cached record's TTL: 75 minutes, RFC 6762 section
	// 10's TTL for records other than host names, the longest an honest
	// responder gives. A larger TTL only keeps a stale record (and its
	// refresh queries) for longer.
	maxTTL = 75 * time.Minute
)

// entry is a cached record: when it came, from where, when it lapses.
type entry struct {
	rr       dns.RR
	key      recordKey
	ttl      time.Duration // the record's TTL, at most maxTTL
	received time.Time
	expires  time.Time
	iface    *Interface
	src      netip.Addr // the sender's address
	local    bool       // sent from this machine
	// refresh are the times, as fractions of the TTL, the record is asked
	// for again before it lapses (RFC 6762 section 5.2: 80, 85, 90 and 95
	// percent, each plus up to 2 percent); refreshed counts those passed.
	refresh   [4]time.Time
	refreshed int
}

// setKey names a record set: a name, in lower case, and a type.
type setKey struct {
	name string
	t    uint16
}

// recordKey names a record: its set and its data (dataKey).
type recordKey struct {
	set  setKey
	data string
}

// cache holds the records a browser keeps, each until its TTL runs out,
// indexed by name and type. It holds at most maxCached; to make room it
// drops the records no longer wanted, then the oldest.
type cache struct {
	sets    map[setKey][]*entry
	records map[recordKey]*entry
	n       int
	// targets counts the cached SRV records naming each host (lower
	// case): the address records the browser wants.
	targets map[string]int
	// keep reports whether a record is still wanted (nil: all are).
	keep func(*entry) bool
}

func newCache() *cache {
	return &cache{sets: map[setKey][]*entry{}, records: map[recordKey]*entry{}, targets: map[string]int{}}
}

func keyOf(name string, t uint16) setKey { return setKey{strings.ToLower(name), t} }

// add takes rr, sent from src and heard at now on i. A TTL of 0 (a
// goodbye) makes a record lapse in one second (RFC 6762 section 10.1); a
// record with the cache-flush bit makes the others of its name and type
// received more than a second ago lapse in one (section 10.2: those
// within the second are the rest of the same announcement). It returns
// whether the cache changed.
func (c *cache) add(rr dns.RR, now time.Time, i *Interface, src netip.Addr, local bool) bool {
	h := rr.Header()
	k := recordKey{keyOf(h.Name, h.Rrtype), dataKey(rr)}
	old := c.records[k]
	if h.Ttl == 0 {
		if old == nil {
			return false
		}
		old.lapse(now)
		return true
	}
	if h.Class&cacheFlush != 0 {
		for _, e := range c.sets[k.set] {
			if e != old && now.Sub(e.received) > time.Second {
				e.lapse(now)
			}
		}
	}
	ttl := min(time.Duration(h.Ttl)*time.Second, maxTTL)
	e := entry{rr: rr, key: k, ttl: ttl, received: now, expires: now.Add(ttl), iface: i, src: src, local: local}
	for n, pct := range []time.Duration{80, 85, 90, 95} {
		e.refresh[n] = now.Add(ttl * pct / 100).Add(time.Duration(rand.Int64N(int64(ttl/50) + 1)))
	}
	if old != nil {
		*old = e
		return true
	}
	if c.n >= maxCached {
		c.evict(now)
	}
	c.sets[k.set] = append(c.sets[k.set], &e)
	c.records[k] = &e
	c.n++
	if srv, ok := rr.(*dns.SRV); ok {
		c.targets[strings.ToLower(srv.Target)]++
	}
	return true
}

// lapse makes e lapse within a second, and not be asked for again.
func (e *entry) lapse(now time.Time) {
	e.expires = minTime(e.expires, now.Add(time.Second))
	e.refreshed = len(e.refresh)
}

// dataKey tells the records of one name and type apart by their data,
// as DNS compares it (names ignoring case). The browser keeps PTR, SRV,
// TXT and A records only.
func dataKey(rr dns.RR) string {
	switch x := rr.(type) {
	case *dns.PTR:
		return strings.ToLower(x.Ptr)
	case *dns.SRV:
		b := binary.BigEndian.AppendUint16(nil, x.Priority)
		b = binary.BigEndian.AppendUint16(b, x.Weight)
		b = binary.BigEndian.AppendUint16(b, x.Port)
		return string(b) + strings.ToLower(x.Target)
	case *dns.TXT:
		var b []byte
		for _, t := range x.Txt {
			b = append(append(b, byte(len(t))), t...) // as on the wire
		}
		return string(b)
	case *dns.A:
		return string(x.A.To4())
	}
	return rr.String()
}

// removeIf drops the records for which drop is true and reports whether
// any was.
func (c *cache) removeIf(drop func(*entry) bool) bool {
	changed := false
	for k, set := range c.sets {
		kept := set[:0]
		for _, e := range set {
			if !drop(e) {
				kept = append(kept, e)
				continue
			}
			changed = true
			c.n--
			delete(c.records, e.key)
			if srv, ok := e.rr.(*dns.SRV); ok {
				t := strings.ToLower(srv.Target)
				if c.targets[t]--; c.targets[t] <= 0 {
					delete(c.targets, t)
				}
			}
		}
		clear(set[len(kept):])
		if len(kept) == 0 {
			delete(c.sets, k)
		} else {
			c.sets[k] = kept
		}
	}
	return changed
}

// evict makes room for a record: it drops the lapsed records and those no
// longer wanted, and when that frees nothing, the oldest quarter, so that
// whatever fills the cache a record wanted now always gets in (and the
// sweep is made once in maxCached/4 records).
func (c *cache) evict(now time.Time) {
	c.removeIf(func(e *entry) bool { return !now.Before(e.expires) || c.keep != nil && !c.keep(e) })
	if c.n < maxCached {
		return
	}
	all := make([]*entry, 0, c.n)
	for _, set := range c.sets {
		all = append(all, set...)
	}
	slices.SortFunc(all, func(a, b *entry) int { return a.received.Compare(b.received) })
	oldest := map[*entry]bool{}
	for _, e := range all[:maxCached/4] {
		oldest[e] = true
	}
	c.removeIf(func(e *entry) bool { return oldest[e] })
}

// expire drops the records lapsed at now and reports whether any was.
func (c *cache) expire(now time.Time) bool {
	return c.removeIf(func(e *entry) bool { return !now.Before(e.expires) })
}

// get returns the live records of name and type.
func (c *cache) get(name string, t uint16, now time.Time) []*entry {
	var out []*entry
	for _, e := range c.sets[keyOf(name, t)] {
		if now.Before(e.expires) {
			out = append(out, e)
		}
	}
	return out
}

// due returns the records still wanted whose next refresh point has
// passed at now; every record past one is counted as refreshed.
func (c *cache) due(now time.Time) []*entry {
	var out []*entry
	for _, set := range c.sets {
		for _, e := range set {
			if e.refreshed == len(e.refresh) || now.Before(e.refresh[e.refreshed]) {
				continue
			}
			for e.refreshed < len(e.refresh) && !now.Before(e.refresh[e.refreshed]) {
				e.refreshed++
			}
			if c.keep == nil || c.keep(e) {
				out = append(out, e)
			}
		}
	}
	return out
}

// next returns the earliest expiry or refresh point (zero: none).
func (c *cache) next() time.Time {
	var t time.Time
	for _, set := range c.sets {
		for _, e := range set {
			t = earliest(t, e.expires)
			if e.refreshed < len(e.refresh) {
				t = earliest(t, e.refresh[e.refreshed])
			}
		}
	}
	return t
}

// size returns how many records the cache holds.
func (c *cache) size() int { return c.n }

// known returns the records of name and type to list as known answers
// in a query: those with more than half their TTL left.
func (c *cache) known(name string, t uint16, now time.Time) []dns.RR {
	var out []dns.RR
	for _, e := range c.get(name, t, now) {
		if left := e.expires.Sub(now); left > e.ttl/2 {
			out = append(out, withTTL(e.rr, uint32(left/time.Second)))
		}
	}
	return out
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// earliest is the earlier of a and b, a zero time counting as none.
func earliest(a, b time.Time) time.Time {
	if a.IsZero() || !b.IsZero() && b.Before(a) {
		return b
	}
	return a
}

// under reports whether name is a service instance of the service name
// svc ("x._osc._udp.local." under "_osc._udp.local.").
func under(name, svc string) bool {
	_, rest := firstLabel(name)
	return strings.EqualFold(rest, svc)
}
