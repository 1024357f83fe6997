package osc

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-gl/mathgl/mgl64"
	goosc "github.com/hypebeast/go-osc/osc"
)

// MaxSubscribers bounds run-time subscriptions.
const MaxSubscribers = 32

// HubStats counts a hub's traffic and faults.
type HubStats struct {
	PacketsSent, SendErrors                       atomic.Uint64
	PacketsReceived, Malformed, Unknown, Rejected atomic.Uint64
}

// Hub owns the daemon's UDP socket: frames go out from it to the
// configured targets and to subscribers, and it receives
// <prefix>/subscribe s host i port, <prefix>/unsubscribe s host i port and
// <prefix>/<hand>/wrist f f f (position) f f f f (quaternion x y z w).
// Whatever else arrives, malformed or hostile, is counted and dropped.
type Hub struct {
	Stats  HubStats
	prefix string
	conn   *net.UDPConn
	// OnWrist receives wrist poses by hand name; set before Serve.
	OnWrist func(hand string, p mgl64.Vec3, q mgl64.Quat)

	mu      sync.RWMutex
	static  []netip.AddrPort
	subs    []netip.AddrPort
	targets []netip.AddrPort // static then subs, rebuilt on change
}

// Listen opens the hub's socket at addr ("127.0.0.1:9001"; port 0 picks
// one).
func Listen(addr, prefix string) (*Hub, error) {
	ua, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, fmt.Errorf("osc: listen address %q: %w", addr, err)
	}
	c, err := net.ListenUDP("udp", ua)
	if err != nil {
		return nil, fmt.Errorf("osc: listen on %s: %w", addr, err)
	}
	// A larger receive buffer rides out bursts (the kernel may cap it).
	c.SetReadBuffer(4 << 20)
	return &Hub{prefix: prefix, conn: c}, nil
}

// Addr returns the address the hub listens on.
func (h *Hub) Addr() net.Addr { return h.conn.LocalAddr() }

// AddTarget adds a fixed destination ("127.0.0.1:9000").
func (h *Hub) AddTarget(addr string) error {
	ap, err := resolveTarget(addr)
	if err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.static = append(h.static, ap)
	h.rebuild()
	return nil
}

// SetTargets replaces the fixed destinations (a reload); subscribers stay.
// On an error none is changed.
func (h *Hub) SetTargets(addrs []string) error {
	static := make([]netip.AddrPort, 0, len(addrs))
	for _, a := range addrs {
		ap, err := resolveTarget(a)
		if err != nil {
			return err
		}
		static = append(static, ap)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.static = static
	h.rebuild()
	return nil
}

// resolveTarget reads "host:port", resolving a host name.
func resolveTarget(addr string) (netip.AddrPort, error) {
	ap, err := netip.ParseAddrPort(addr)
	if err == nil {
		return ap, nil
	}
	ua, rerr := net.ResolveUDPAddr("udp", addr)
	if rerr != nil {
		return netip.AddrPort{}, fmt.Errorf("osc: target %q: %w", addr, rerr)
	}
	return ua.AddrPort(), nil
}

func (h *Hub) rebuild() {
	h.targets = append(append(h.targets[:0], h.static...), h.subs...)
}

// Subscribers returns the run-time subscribers.
func (h *Hub) Subscribers() []netip.AddrPort {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return append([]netip.AddrPort(nil), h.subs...)
}

// Send writes every packet to every target. Send errors (an unreachable
// subscriber) are counted, not returned: one bad target must not stop the
// others.
func (h *Hub) Send(packets [][]byte) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	for _, t := range h.targets {
		for _, p := range packets {
			if _, err := h.conn.WriteToUDPAddrPort(p, t); err != nil {
				h.Stats.SendErrors.Add(1)
				continue
			}
			h.Stats.PacketsSent.Add(1)
		}
	}
}

// Serve receives until ctx ends or the hub is closed.
// The socket stays open when ctx ends (a reload hands the hub on); Close
// closes it.
func (h *Hub) Serve(ctx context.Context) error {
	h.conn.SetReadDeadline(time.Time{})
	defer context.AfterFunc(ctx, func() { h.conn.SetReadDeadline(time.Now()) })()
	buf := make([]byte, 65536)
	for {
		n, _, err := h.conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			continue
		}
		h.Stats.PacketsReceived.Add(1)
		h.handle(buf[:n])
	}
}

// Close closes the socket.
func (h *Hub) Close() error { return h.conn.Close() }

// parse decodes a packet with go-osc, turning its panics into errors.
func parse(b []byte) (p goosc.Packet, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("osc: decoder panic: %v", r)
		}
	}()
	return goosc.ParsePacket(string(b))
}

func (h *Hub) handle(b []byte) {
	p, err := parse(b)
	if err != nil || p == nil {
		h.Stats.Malformed.Add(1)
		return
	}
	h.dispatch(p, 0)
}

func (h *Hub) dispatch(p goosc.Packet, depth int) {
	switch m := p.(type) {
	case *goosc.Bundle:
		if depth > 4 {
			h.Stats.Malformed.Add(1)
			return
		}
		for _, x := range m.Messages {
			h.dispatch(x, depth+1)
		}
		for _, x := range m.Bundles {
			h.dispatch(x, depth+1)
		}
	case *goosc.Message:
		h.message(m)
	default:
		h.Stats.Malformed.Add(1)
	}
}

func (h *Hub) message(m *goosc.Message) {
	switch {
	case m.Address == h.prefix+"/subscribe" || m.Address == h.prefix+"/unsubscribe":
		ap, ok := hostPort(m.Arguments)
		if !ok {
			h.Stats.Rejected.Add(1)
			return
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		i := indexOf(h.subs, ap)
		if strings.HasSuffix(m.Address, "/subscribe") {
			if i < 0 {
				if len(h.subs) >= MaxSubscribers {
					h.Stats.Rejected.Add(1)
					return
				}
				h.subs = append(h.subs, ap)
			}
		} else if i >= 0 {
			h.subs = append(h.subs[:i], h.subs[i+1:]...)
		}
		h.rebuild()
	case strings.HasPrefix(m.Address, h.prefix+"/") && strings.HasSuffix(m.Address, "/wrist"):
		hand := strings.TrimSuffix(strings.TrimPrefix(m.Address, h.prefix+"/"), "/wrist")
		var v [7]float64
		if len(m.Arguments) != 7 || hand == "" || strings.Contains(hand, "/") {
			h.Stats.Rejected.Add(1)
			return
		}
		for i, a := range m.Arguments {
			f, ok := a.(float32)
			if !ok || f != f || f > 1e30 || f < -1e30 {
				h.Stats.Rejected.Add(1)
				return
			}
			v[i] = float64(f)
		}
		q := mgl64.Quat{W: v[6], V: mgl64.Vec3{v[3], v[4], v[5]}}
		if q.Len() < 1e-9 {
			h.Stats.Rejected.Add(1)
			return
		}
		if h.OnWrist != nil {
			h.OnWrist(hand, mgl64.Vec3{v[0], v[1], v[2]}, q.Normalize())
		}
	default:
		h.Stats.Unknown.Add(1)
	}
}

func hostPort(args []any) (netip.AddrPort, bool) {
	if len(args) != 2 {
		return netip.AddrPort{}, false
	}
	host, ok1 := args[0].(string)
	port, ok2 := args[1].(int32)
	if !ok1 || !ok2 || port <= 0 || port > 65535 {
		return netip.AddrPort{}, false
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.AddrPort{}, false
	}
	return netip.AddrPortFrom(a, uint16(port)), true
}

func indexOf(s []netip.AddrPort, a netip.AddrPort) int {
	for i, x := range s {
		if x == a {
			return i
		}
	}
	return -1
}
