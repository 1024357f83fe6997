package osc

import (
	"errors"
	"fmt"
	"math"
	"net/netip"
	"time"
)

// lease is one run-time subscription: frames go to dest until expires
// unless its owner renews it.
type lease struct {
	dest    netip.AddrPort
	owner   netip.Addr    // the source address that made it
	expires time.Duration // on the hub's monotonic clock
}

// errUnproven is a destination that is not loopback and has not sent
// back its token.
var errUnproven = errors.New("the destination has not proven it receives there")

// subscribe adds src's subscription of dst, or renews it, and returns the
// lease granted. A destination that is not loopback must have sent back
// tok, its token (errUnproven otherwise), whether it subscribes or
// renews; stale reports a token under the previous key, whose holder is
// due a new one.
func (h *Hub) subscribe(src netip.Addr, dst netip.AddrPort, tok string) (d time.Duration, stale bool, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.clock()
	h.expire(now)
	if err := h.permitLocked(src, dst.Addr()); err != nil {
		return 0, false, err
	}
	if SendsToSelf(h.local, dst, h.own) {
		return 0, false, errSelf
	}
	if h.inputLocked(dst) {
		return 0, false, errInput
	}
	if !dst.Addr().Unmap().IsLoopback() {
		valid, fresh := h.tokens.check(dst, tok, now)
		if !valid {
			return 0, false, errUnproven
		}
		stale = !fresh
	}
	d = h.policy.Lease
	if i := h.find(dst); i >= 0 {
		h.subs[i].expires = now + d
		h.updateExpiry()
		return d, stale, nil
	}
	if n := h.held(src); n >= h.policy.PerSource {
		return 0, false, fmt.Errorf("%v already holds %d subscriptions, the limit per source", src, n)
	}
	if len(h.subs) >= MaxSubscribers {
		return 0, false, fmt.Errorf("all %d subscriptions are taken", MaxSubscribers)
	}
	h.subs = append(h.subs, lease{dest: dst, owner: src, expires: now + d})
	h.rebuild()
	h.updateExpiry()
	return d, stale, nil
}

// unsubscribe ends the subscription of dst, if there is one, when src is
// the machine that made it or its destination; found says whether there
// was one.
func (h *Hub) unsubscribe(src netip.Addr, dst netip.AddrPort) (found bool, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.expire(h.clock())
	i := h.find(dst)
	if i < 0 {
		return false, nil
	}
	if l := h.subs[i]; !sameHost(src, l.owner) && !sameHost(src, l.dest.Addr()) {
		return true, errors.New("only the subscriber or the destination may unsubscribe")
	}
	h.subs = append(h.subs[:i], h.subs[i+1:]...)
	h.rebuild()
	h.updateExpiry()
	return true, nil
}

// Subscribers returns the run-time subscribers whose leases run.
func (h *Hub) Subscribers() []netip.AddrPort {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.expire(h.clock())
	out := make([]netip.AddrPort, len(h.subs))
	for i, l := range h.subs {
		out[i] = l.dest
	}
	return out
}

// expire drops the leases lapsed at now; h.mu is held. It allocates
// nothing (Send calls it).
func (h *Hub) expire(now time.Duration) {
	kept := h.subs[:0]
	for _, l := range h.subs {
		if l.expires > now {
			kept = append(kept, l)
		} else {
			h.Stats.Expired.Add(1)
		}
	}
	if len(kept) != len(h.subs) {
		clear(h.subs[len(kept):])
		h.subs = kept
		h.rebuild()
	}
	h.updateExpiry()
}

// updateExpiry records when the first lease lapses; h.mu is held.
func (h *Hub) updateExpiry() {
	next := time.Duration(math.MaxInt64)
	for _, l := range h.subs {
		next = min(next, l.expires)
	}
	h.nextExpiry.Store(int64(next))
}

// rebuild lists the subscriptions' destinations; h.mu is held.
func (h *Hub) rebuild() {
	h.subDests = h.subDests[:0]
	for _, l := range h.subs {
		h.subDests = append(h.subDests, l.dest)
	}
}

// find returns the index of dst's lease, or -1.
func (h *Hub) find(dst netip.AddrPort) int {
	for i, l := range h.subs {
		if l.dest == dst {
			return i
		}
	}
	return -1
}

// held counts the leases src made.
func (h *Hub) held(src netip.Addr) int {
	n := 0
	for _, l := range h.subs {
		if l.owner == src {
			n++
		}
	}
	return n
}
