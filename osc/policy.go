package osc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// Limits of the policy.
const (
	DefaultLease     = 10 * time.Second // comfortably over gloved watch's 3 s renewal
	MaxLease         = time.Hour
	DefaultPerSource = 8 // subscriptions one source address may hold
)

// DefaultWristBox bounds wrist positions: 5 m each way from the origin.
var DefaultWristBox = geom.AABB{Min: geom.Vec3{X: -5, Y: -5, Z: -5}, Max: geom.Vec3{X: 5, Y: 5, Z: 5}}

// limitedBroadcast is 255.255.255.255.
var limitedBroadcast = netip.AddrFrom4([4]byte{255, 255, 255, 255})

// Policy is what a hub accepts, and from whom.
type Policy struct {
	// Allow lists trusted sources besides loopback (always trusted):
	// they may send control messages (wrist poses) and have frames sent to
	// any address in the list. Any other source may only subscribe its own
	// address. A multicast or broadcast destination must be listed
	// explicitly: as a single address, or (multicast) inside a multicast
	// prefix such as 239.0.0.0/8; 192.168.1.0/24 does not cover
	// 192.168.1.255.
	Allow []netip.Prefix
	// Lease is how long a subscription lasts unless renewed (0:
	// DefaultLease; at most MaxLease).
	Lease time.Duration
	// PerSource bounds the subscriptions one source address holds (0:
	// DefaultPerSource; at most MaxSubscribers).
	PerSource int
	// WristBox bounds wrist positions, in metres (zero: DefaultWristBox).
	WristBox geom.AABB
	// Inputs are where gloved's other sockets listen (its tracker hands'
	// options.listen): no subscription sends there, as none sends to the
	// hub's own socket, or its frames would come back as input.
	Inputs []netip.AddrPort
}

// DefaultPolicy returns the policy of a hub nobody configured.
func DefaultPolicy() Policy { return Policy{}.normalized() }

// normalized fills p's defaults, clamps its limits and unmaps and masks
// its prefixes, in a copy.
func (p Policy) normalized() Policy {
	if p.Lease <= 0 {
		p.Lease = DefaultLease
	}
	p.Lease = min(p.Lease, MaxLease)
	if p.PerSource <= 0 {
		p.PerSource = DefaultPerSource
	}
	p.PerSource = min(p.PerSource, MaxSubscribers)
	if p.WristBox == (geom.AABB{}) {
		p.WristBox = DefaultWristBox
	}
	allow := make([]netip.Prefix, 0, len(p.Allow))
	for _, a := range p.Allow {
		if a.Addr().Is4In6() && a.Bits() >= 96 {
			a = netip.PrefixFrom(a.Addr().Unmap(), a.Bits()-96)
		}
		if a.IsValid() {
			allow = append(allow, a.Masked())
		}
	}
	p.Allow = allow
	return p
}

// SetPolicy replaces the hub's policy; subscriptions the new one would
// refuse end at once.
func (h *Hub) SetPolicy(p Policy) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.policy = p.normalized()
	kept := h.subs[:0]
	for _, l := range h.subs {
		if h.permitLocked(l.owner, l.dest.Addr()) == nil && !h.inputLocked(l.dest) {
			kept = append(kept, l)
		}
	}
	h.subs = kept
	h.rebuild()
	h.updateExpiry()
}

// Policy returns the hub's policy, defaults filled in.
func (h *Hub) Policy() Policy {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.policy
}

// trusted reports whether src may send control messages.
func (h *Hub) trusted(src netip.Addr) bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.trustedLocked(src)
}

func (h *Hub) trustedLocked(a netip.Addr) bool {
	a = a.Unmap()
	if a.IsLoopback() {
		return true
	}
	for _, p := range h.policy.Allow {
		if p.Contains(a.WithZone("")) {
			return true
		}
	}
	return false
}

// permit returns why src may not have frames sent to dst, or nil.
func (h *Hub) permit(src, dst netip.Addr) error {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.permitLocked(src, dst)
}

func (h *Hub) permitLocked(src, dst netip.Addr) error {
	src, dst = src.Unmap(), dst.Unmap()
	switch {
	case !dst.IsValid() || dst.IsUnspecified():
		return errors.New("unspecified destination")
	case !h.reachable(dst):
		return fmt.Errorf("the daemon listens on %v and cannot send to another IP version (%s)", h.local.Addr(), family(dst))
	case dst.IsMulticast() || h.broadcast(dst):
		kind := "multicast"
		if !dst.IsMulticast() {
			kind = "broadcast"
		}
		if !h.trustedLocked(src) || !h.explicit(dst) {
			return fmt.Errorf("a %s destination must be listed in osc.allow on its own, and the sender must be trusted", kind)
		}
		return nil
	case sameHost(src, dst), h.trustedLocked(src) && h.trustedLocked(dst):
		return nil
	}
	return errors.New("the destination is not the sender's address (frames go to another host only when osc.allow lists both)")
}

// inputLocked reports whether frames sent to dst reach one of the
// policy's Inputs; h.mu is held.
func (h *Hub) inputLocked(dst netip.AddrPort) bool {
	for _, in := range h.policy.Inputs {
		if SendsToSelf(in, dst, h.own) {
			return true
		}
	}
	return false
}

// sameHost reports whether a and b are one machine: equal, or both
// loopback.
func sameHost(a, b netip.Addr) bool {
	a, b = a.Unmap().WithZone(""), b.Unmap().WithZone("")
	return a == b || a.IsLoopback() && b.IsLoopback()
}

// reachable reports whether the hub's socket can send to dst's address
// family (a dual-stack wildcard socket reaches both).
func (h *Hub) reachable(dst netip.Addr) bool {
	l := h.local.Addr()
	if !l.IsValid() || l.Is6() && l.IsUnspecified() {
		return true
	}
	return l.Unmap().Is4() == dst.Is4()
}

// broadcast reports whether a is an IPv4 broadcast address: the limited
// broadcast, one of this machine's networks', or the all-ones host of an
// allowed prefix.
func (h *Hub) broadcast(a netip.Addr) bool {
	if !a.Is4() {
		return false
	}
	if a == limitedBroadcast {
		return true
	}
	for _, b := range h.bcast {
		if a == b {
			return true
		}
	}
	for _, p := range h.policy.Allow {
		if p.Addr().Is4() && p.Bits() <= 30 && lastAddr(p) == a {
			return true
		}
	}
	return false
}

// explicit reports whether a multicast or broadcast address a is listed
// on its own: a single address, or inside a multicast prefix.
func (h *Hub) explicit(a netip.Addr) bool {
	for _, p := range h.policy.Allow {
		if !p.Contains(a) {
			continue
		}
		if p.IsSingleIP() || a.IsMulticast() && p.Addr().IsMulticast() && p.Bits() >= multicastBits(a) {
			return true
		}
	}
	return false
}

// family names a's IP version.
func family(a netip.Addr) string {
	if a.Is4() {
		return "IPv4"
	}
	return "IPv6"
}

// multicastBits is the length of a's family's multicast prefix
// (224.0.0.0/4, ff00::/8).
func multicastBits(a netip.Addr) int {
	if a.Is4() {
		return 4
	}
	return 8
}

// lastAddr returns the all-ones host of an IPv4 prefix.
func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().As4()
	v := binary.BigEndian.Uint32(b[:]) | (1<<(32-p.Bits()) - 1)
	binary.BigEndian.PutUint32(b[:], v)
	return netip.AddrFrom4(b)
}

// interfaceBroadcasts returns the broadcast addresses of this machine's
// IPv4 networks.
func interfaceBroadcasts() []netip.Addr {
	var out []netip.Addr
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	for _, a := range addrs {
		n, ok := a.(*net.IPNet)
		if !ok {
			continue
		}
		ip, ok := netip.AddrFromSlice(n.IP)
		ones, bits := n.Mask.Size()
		if ok && ip.Unmap().Is4() && bits == 32 && ones <= 30 {
			out = append(out, lastAddr(netip.PrefixFrom(ip.Unmap(), ones)))
		}
	}
	return out
}

// inBox reports whether p lies in b (false for NaN).
func inBox(b geom.AABB, p mgl64.Vec3) bool {
	lo, hi := b.Min.Mgl(), b.Max.Mgl()
	for i := range 3 {
		if !(p[i] >= lo[i] && p[i] <= hi[i]) {
			return false
		}
	}
	return true
}
