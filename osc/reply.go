package osc

import (
	"net/netip"
	"sync"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"
)

// Reply limits: the hub answers at most RepliesPerSource times a second
// to one address and RepliesPerSecond times in all, so that spoofed
// requests cannot turn it into a reflector. An address that has not
// proven it receives what is sent there (a token, or loopback) gets at
// most UnprovenPerAddress replies a second, UnprovenPerSecond in all, each
// no larger than the request it answers: a forged source buys no
// amplification at all.
const (
	RepliesPerSource   = 4
	RepliesPerSecond   = 64
	UnprovenPerAddress = 1
	UnprovenPerSecond  = 32
	maxReplySources    = 256 // addresses remembered per second
)

// answer is how to reply to a request: the address the reply goes to,
// whether it has proven it receives there, and the request's size on the
// wire.
type answer struct {
	to     netip.AddrPort
	proven bool
	size   int
}

// reply sends the message (addr, args) as the answer a, within the rate
// limits; to an unproven address that is not loopback, only one no
// larger than the request and within the unproven budget (the rest are
// counted as withheld). It reports whether the reply went out.
func (h *Hub) reply(a answer, addr string, args ...any) bool {
	b, err := goosc.NewMessage(addr, args...).MarshalBinary()
	if err != nil || h.out == nil {
		return false
	}
	now := h.clock()
	if !a.proven && !a.to.Addr().Unmap().IsLoopback() && (len(b) > a.size || !h.unproven.allow(a.to.Addr(), now)) {
		h.Stats.Withheld.Add(1)
		return false
	}
	if !h.replies.allow(a.to.Addr(), now) {
		h.Stats.RepliesLimited.Add(1)
		return false
	}
	if _, err := h.out.WriteToUDPAddrPort(b, a.to); err != nil {
		h.Stats.SendErrors.Add(1)
		return false
	}
	return true
}

// rateLimit counts events per source and in all within one-second
// windows: at most perSource from one source, total in all, from at most
// sources sources.
type rateLimit struct {
	perSource, total, sources int

	mu     sync.Mutex
	window int64 // the second of the hub's clock the counts are for
	n      int
	counts map[netip.Addr]int
}

// allow reports whether one more event from src fits this second.
func (r *rateLimit) allow(src netip.Addr, now time.Duration) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s := int64(now / time.Second); s != r.window || r.counts == nil {
		r.window, r.n = s, 0
		r.counts = make(map[netip.Addr]int)
	}
	n, known := r.counts[src]
	if r.n >= r.total || n >= r.perSource || !known && len(r.counts) >= r.sources {
		return false
	}
	r.counts[src] = n + 1
	r.n++
	return true
}

// Kinds of log line, each limited on its own to one a second.
const (
	logDenied  = "denied"
	logBadPose = "bad_pose"
	logRefused = "refused"
)

// logf logs msg unless a line of its kind went out less than a second
// ago; the next line that goes out counts those held back.
func (h *Hub) logf(kind, msg string, kv ...any) {
	// The limiter only subtracts instants: the monotonic reading as a
	// time since the zero Time keeps it off the wall clock too.
	h.logs.Log(h.Log, kind, time.Time{}.Add(h.clock()), msg, kv...)
}

// warn logs a one-off line.
func (h *Hub) warn(msg string, kv ...any) {
	if h.Log != nil {
		h.Log(msg, kv...)
	}
}
