package osc

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strconv"
	"time"
)

// Host name lookups run off the receive path, one at a time, from a short
// queue: a flood of names cannot stall wrist input.
const (
	ResolveTimeout    = 2 * time.Second
	maxPendingLookups = 4
)

// lookup is a /subscribe or /unsubscribe request, waiting for its host
// when it names one.
type lookup struct {
	src   netip.AddrPort
	host  string
	port  uint16
	token string // "" when it has none
	size  int    // the request's size on the wire
	unsub bool
}

// lookupHost resolves host with the system's resolver.
func lookupHost(ctx context.Context, host string) ([]netip.Addr, error) {
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

// request handles /subscribe and /unsubscribe: an address is applied at
// once; a host name from a trusted source is queued for lookup (other
// sources may only subscribe their own address, so they send it).
func (h *Hub) request(q request, src netip.AddrPort, unsub bool) {
	host, port, token, ok := hostPort(q.m.Arguments)
	if !ok {
		h.Stats.Rejected.Add(1)
		h.reply(answer{to: src, size: q.size}, h.addr.refused, "usage: "+q.m.Address+" s host i port [s token] (host an address or a name, port 1-65535)")
		return
	}
	r := lookup{src: src, host: host, port: port, token: token, size: q.size, unsub: unsub}
	if a, err := netip.ParseAddr(host); err == nil {
		h.apply(r, []netip.Addr{a})
		return
	}
	if !h.trusted(src.Addr()) {
		h.refuse(r, host+": host names are resolved only for sources in osc.allow; send your address")
		return
	}
	select {
	case h.lookups <- r:
	default:
		h.refuse(r, host+": busy resolving other names; retry, or send an address")
	}
}

// resolveLoop resolves queued host names until ctx ends.
func (h *Hub) resolveLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case r := <-h.lookups:
			lctx, cancel := context.WithTimeout(ctx, ResolveTimeout)
			addrs, err := h.resolve(lctx, r.host)
			cancel()
			if ctx.Err() != nil {
				return // the hub stopped serving: the request is dropped, not refused
			}
			if err != nil || len(addrs) == 0 {
				h.refuse(r, fmt.Sprintf("%s: cannot resolve: %v", r.host, err))
				continue
			}
			h.apply(r, addrs)
		}
	}
}

// apply subscribes the first of addrs the policy permits, or unsubscribes
// them all, and answers; a destination that has yet to prove itself is
// sent its token instead.
func (h *Hub) apply(r lookup, addrs []netip.Addr) {
	addrs = slices.Clone(addrs)
	for i, a := range addrs {
		addrs[i] = a.Unmap()
	}
	// Prefer what the socket reaches, then the sender's family: "localhost"
	// from 127.0.0.1 means 127.0.0.1, not ::1.
	src := r.src.Addr()
	rank := func(a netip.Addr) int {
		return boolInt(!h.reachable(a))*2 + boolInt(a.Is4() != src.Is4())
	}
	slices.SortStableFunc(addrs, func(a, b netip.Addr) int { return rank(a) - rank(b) })
	var first error
	found := false
	for _, a := range addrs {
		dst := netip.AddrPortFrom(a, r.port)
		var err error
		if r.unsub {
			var had bool
			had, err = h.unsubscribe(r.src.Addr(), dst)
			found = found || had
		} else if d, stale, serr := h.subscribe(r.src.Addr(), dst, r.token); serr == nil {
			h.reply(h.answerOf(r), h.addr.subscribed, a.String(), int32(r.port), float32(d.Seconds()))
			if stale {
				h.challenge(r, dst, true) // the next renewal's token
			}
			return
		} else if errors.Is(serr, errUnproven) {
			if r.token != "" {
				h.Stats.BadTokens.Add(1)
			}
			h.challenge(r, dst, false)
			return
		} else {
			err = serr
		}
		if err != nil && first == nil {
			first = fmt.Errorf("%v: %w", dst, err)
		}
	}
	if first != nil {
		h.refuse(r, first.Error())
		return
	}
	if !found {
		// Not "unsubscribed": a port mistyped would leave the stream
		// running at the real one while the sender believes it stopped.
		h.refuse(r, net.JoinHostPort(r.host, strconv.Itoa(int(r.port)))+": no subscription (none was made, or its lease ran out)")
		return
	}
	h.reply(h.answerOf(r), h.addr.unsubscribed, r.host, int32(r.port))
}

// challenge sends dst its token (<prefix>/validate s token), for the
// subscriber to send back from there; a destination that has not proven
// itself gets it only within the unproven budget and when it is no larger
// than the request.
func (h *Hub) challenge(r lookup, dst netip.AddrPort, proven bool) {
	if h.reply(answer{to: dst, proven: proven, size: r.size}, h.addr.validate, h.tokens.issue(dst, h.clock())) {
		h.Stats.Challenges.Add(1)
	}
}

// answerOf is how to answer r: to its sender, proven when r's token is
// good for the sender's own address at the port r names.
func (h *Hub) answerOf(r lookup) answer {
	valid, _ := h.tokens.check(netip.AddrPortFrom(r.src.Addr(), r.port), r.token, h.clock())
	return answer{to: r.src, proven: valid, size: r.size}
}

// refuse counts, logs and answers a refused request.
func (h *Hub) refuse(r lookup, reason string) {
	h.Stats.Refused.Add(1)
	what := "subscription"
	if r.unsub {
		what = "unsubscription"
	}
	h.logf(logRefused, "osc: "+what+" refused", "source", r.src.String(), "reason", reason)
	h.reply(h.answerOf(r), h.addr.refused, reason)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
