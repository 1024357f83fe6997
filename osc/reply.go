package osc

import (
	"net/netip"
	"sync"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"
)

// Reply limits: the hub answers at most RepliesPerSource times a second
// to one address and RepliesPerSecond times in all, so that spoofed
// requests cannot turn it into a reflector.
const (
	RepliesPerSource = 4
	RepliesPerSecond = 64
	maxReplySources  = 256 // addresses remembered per second
)

// reply sends an acknowledgement (addr, args) to src, within the rate
// limits.
func (h *Hub) reply(src netip.AddrPort, addr string, args ...any) {
	if !h.replies.allow(src.Addr(), h.clock()) {
		h.Stats.RepliesLimited.Add(1)
		return
	}
	b, err := goosc.NewMessage(addr, args...).MarshalBinary()
	if err != nil || h.out == nil {
		return
	}
	if _, err := h.out.WriteToUDPAddrPort(b, src); err != nil {
		h.Stats.SendErrors.Add(1)
	}
}

// rateLimit counts events per source and in all within one-second
// windows.
type rateLimit struct {
	mu     sync.Mutex
	window int64 // the second of the hub's clock the counts are for
	total  int
	counts map[netip.Addr]int
}

// allow reports whether one more event from src fits this second.
func (r *rateLimit) allow(src netip.Addr, now time.Duration) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s := int64(now / time.Second); s != r.window || r.counts == nil {
		r.window, r.total = s, 0
		r.counts = make(map[netip.Addr]int)
	}
	n, known := r.counts[src]
	if r.total >= RepliesPerSecond || n >= RepliesPerSource || !known && len(r.counts) >= maxReplySources {
		return false
	}
	r.counts[src] = n + 1
	r.total++
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
