package mdns

import (
	"math/rand/v2"
	"strings"
	"time"

	"github.com/miekg/dns"
)

// maxCached bounds the records a browser keeps, whatever others send.
const maxCached = 512

// entry is a cached record: when it came, from where, when it lapses.
type entry struct {
	rr       dns.RR
	received time.Time
	expires  time.Time
	iface    *Interface
	local    bool // sent from this machine
	// refresh are the times, as fractions of the TTL, the record is asked
	// for again before it lapses (RFC 6762 section 5.2: 80, 85, 90 and 95
	// percent, each plus up to 2 percent); refreshed counts those passed.
	refresh   [4]time.Time
	refreshed int
}

// cache holds the records a browser heard, each until its TTL runs out.
type cache struct {
	entries map[string]*entry // by key
}

func newCache() *cache { return &cache{entries: map[string]*entry{}} }

// add takes rr, heard at now on i. A TTL of 0 (a goodbye) makes a record
// lapse in one second (RFC 6762 section 10.1); a record with the
// cache-flush bit makes the others of its name and type that are older
// than a second lapse in one (section 10.2). It returns whether the cache
// changed.
func (c *cache) add(rr dns.RR, now time.Time, i *Interface, local bool) bool {
	h := rr.Header()
	k := key(rr)
	old := c.entries[k]
	if h.Ttl == 0 {
		if old == nil {
			return false
		}
		old.expires = minTime(old.expires, now.Add(time.Second))
		old.refreshed = len(old.refresh)
		return true
	}
	if h.Class&cacheFlush != 0 {
		nt := nameType(rr)
		for ok, e := range c.entries {
			if ok != k && nameType(e.rr) == nt && now.Sub(e.received) > time.Second {
				e.expires = minTime(e.expires, now.Add(time.Second))
				e.refreshed = len(e.refresh)
			}
		}
	}
	if old == nil && len(c.entries) >= maxCached {
		return false
	}
	ttl := time.Duration(h.Ttl) * time.Second
	e := &entry{rr: rr, received: now, expires: now.Add(ttl), iface: i, local: local}
	for n, pct := range []int{80, 85, 90, 95} {
		e.refresh[n] = now.Add(ttl * time.Duration(pct) / 100).Add(time.Duration(rand.Int64N(int64(ttl/50) + 1)))
	}
	c.entries[k] = e
	return true
}

// expire drops the records lapsed at now and reports whether any was.
func (c *cache) expire(now time.Time) bool {
	changed := false
	for k, e := range c.entries {
		if !now.Before(e.expires) {
			delete(c.entries, k)
			changed = true
		}
	}
	return changed
}

// get returns the live records of name and type.
func (c *cache) get(name string, t uint16, now time.Time) []*entry {
	var out []*entry
	for _, e := range c.entries {
		h := e.rr.Header()
		if h.Rrtype == t && sameName(h.Name, name) && now.Before(e.expires) {
			out = append(out, e)
		}
	}
	return out
}

// due returns the records whose next refresh point has passed at now,
// each counted as refreshed.
func (c *cache) due(now time.Time) []dns.RR {
	var out []dns.RR
	for _, e := range c.entries {
		if e.refreshed < len(e.refresh) && !now.Before(e.refresh[e.refreshed]) {
			for e.refreshed < len(e.refresh) && !now.Before(e.refresh[e.refreshed]) {
				e.refreshed++
			}
			out = append(out, e.rr)
		}
	}
	return out
}

// next returns the earliest expiry or refresh point (zero: none).
func (c *cache) next() time.Time {
	var t time.Time
	for _, e := range c.entries {
		t = earliest(t, e.expires)
		if e.refreshed < len(e.refresh) {
			t = earliest(t, e.refresh[e.refreshed])
		}
	}
	return t
}

// known returns the records of name and type to list as known answers
// in a query: those with more than half their TTL left.
func (c *cache) known(name string, t uint16, now time.Time) []dns.RR {
	var out []dns.RR
	for _, e := range c.get(name, t, now) {
		left := e.expires.Sub(now)
		if total := time.Duration(e.rr.Header().Ttl) * time.Second; left > total/2 {
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
