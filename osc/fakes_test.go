package osc

import (
	"context"
	"errors"
	"net/netip"
	"sync"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"
)

// recorder stands in for the hub's socket: it keeps what the hub would
// send, so that tests of refusals and of non-loopback peers put nothing on
// the machine's interfaces.
type recorder struct {
	mu   sync.Mutex
	sent []datagram
}

type datagram struct {
	to netip.AddrPort
	b  []byte
}

func (r *recorder) WriteToUDPAddrPort(b []byte, to netip.AddrPort) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent = append(r.sent, datagram{to, append([]byte(nil), b...)})
	return len(b), nil
}

// replies returns the bare messages (the hub's replies) sent so far and
// forgets everything sent.
func (r *recorder) replies(t *testing.T) []reply {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []reply
	for _, d := range r.sent {
		p, err := goosc.ParsePacket(string(d.b))
		if err != nil {
			t.Fatalf("the hub sent an undecodable packet: %v", err)
		}
		if m, ok := p.(*goosc.Message); ok {
			out = append(out, reply{d.to, m})
		}
	}
	r.sent = nil
	return out
}

// destinations returns where packets went, and forgets them.
func (r *recorder) destinations() []netip.AddrPort {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []netip.AddrPort
	for _, d := range r.sent {
		out = append(out, d.to)
	}
	r.sent = nil
	return out
}

// to counts the datagrams sent to a (any port) and their bytes.
func (r *recorder) to(a netip.Addr) (n, bytes int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, d := range r.sent {
		if d.to.Addr() == a {
			n, bytes = n+1, bytes+len(d.b)
		}
	}
	return n, bytes
}

type reply struct {
	to netip.AddrPort
	m  *goosc.Message
}

// clock is a settable monotonic clock for leases, rate limits and token
// keys. It starts 1000 hours in, far from the process's own uptime, so
// that a hub reading any other clock shows.
type clock struct {
	mu sync.Mutex
	t  time.Duration
}

func (c *clock) now() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t += d
}

// fakeHosts resolves a few names without DNS.
func fakeHosts(_ context.Context, host string) ([]netip.Addr, error) {
	switch host {
	case "localhost":
		return []netip.Addr{netip.MustParseAddr("::1"), netip.MustParseAddr("127.0.0.1")}, nil
	case "quest.lan":
		return []netip.Addr{netip.MustParseAddr("192.0.2.7")}, nil
	}
	return nil, errors.New("no such host")
}

// testHub is a hub without a socket: a recorder takes what it sends, time
// is a clock the test moves and names resolve through fakeHosts.
func testHub(t *testing.T, p Policy) (*Hub, *recorder, *clock) {
	t.Helper()
	h := newHub("/gloved")
	rec := &recorder{}
	clk := &clock{t: 1000 * time.Hour}
	h.out, h.clock, h.resolve = rec, clk.now, fakeHosts
	h.SetPolicy(p)
	return h, rec, clk
}

func ap(s string) netip.AddrPort { return netip.MustParseAddrPort(s) }

// packet encodes an OSC message.
func packet(t testing.TB, addr string, args ...any) []byte {
	t.Helper()
	b, err := goosc.NewMessage(addr, args...).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// bundle encodes messages as one bundle.
func bundle(t testing.TB, ms ...*goosc.Message) []byte {
	t.Helper()
	b := goosc.NewBundle(time.Unix(0, 0))
	for _, m := range ms {
		if err := b.Append(m); err != nil {
			t.Fatal(err)
		}
	}
	out, err := b.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func subscribe(t testing.TB, h *Hub, from string, host string, port int) {
	t.Helper()
	h.handle(packet(t, "/gloved/subscribe", host, int32(port)), ap(from))
}

func unsubscribe(t testing.TB, h *Hub, from string, host string, port int) {
	t.Helper()
	h.handle(packet(t, "/gloved/unsubscribe", host, int32(port)), ap(from))
}

// subscribeProven subscribes host:port (an address) from `from` as a
// client that answers the hub's challenge does: the request, then the
// request again with the token the hub sent the destination.
func subscribeProven(t *testing.T, h *Hub, rec *recorder, from, host string, port int) {
	t.Helper()
	subscribe(t, h, from, host, port)
	tok := tokenSent(t, rec, netip.AddrPortFrom(netip.MustParseAddr(host), uint16(port)))
	h.handle(packet(t, "/gloved/subscribe", host, int32(port), tok), ap(from))
}

// tokenSent returns the token the hub sent dst (<prefix>/validate), and
// forgets what it sent; it fails t when none went there.
func tokenSent(t *testing.T, rec *recorder, dst netip.AddrPort) string {
	t.Helper()
	for _, r := range rec.replies(t) {
		if r.to == dst && r.m.Address == "/gloved/validate" && len(r.m.Arguments) == 1 {
			if tok, ok := r.m.Arguments[0].(string); ok {
				return tok
			}
		}
	}
	t.Fatalf("no token sent to %v", dst)
	return ""
}
