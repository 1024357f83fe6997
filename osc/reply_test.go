package osc

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"
)

// TestSubscriptionsAreAcknowledged: over real loopback sockets, a
// subscription is answered with <prefix>/subscribed (host, port, lease in
// seconds) and a refusal with <prefix>/refused and its reason, both sent
// to the requester's address; a refused multicast destination never
// receives anything.
func TestSubscriptionsAreAcknowledged(t *testing.T) {
	h, app := startHub(t)
	me := app.LocalAddr().(*net.UDPAddr)
	sendMsg(t, app, h.Addr(), goosc.NewMessage("/gloved/subscribe", "127.0.0.1", int32(me.Port)))
	m := receiveMessage(t, app)
	if m.Address != "/gloved/subscribed" || fmt.Sprint(m.Arguments) != fmt.Sprintf("[127.0.0.1 %d %v]", me.Port, DefaultLease.Seconds()) {
		t.Fatalf("got %v, want /gloved/subscribed 127.0.0.1 %d %v", m, me.Port, DefaultLease.Seconds())
	}
	sendMsg(t, app, h.Addr(), goosc.NewMessage("/gloved/subscribe", "239.1.2.3", int32(me.Port)))
	m = receiveMessage(t, app)
	if m.Address != "/gloved/refused" || len(m.Arguments) != 1 || !strings.Contains(m.Arguments[0].(string), "multicast") {
		t.Fatalf("got %v, want /gloved/refused naming multicast", m)
	}
	sendMsg(t, app, h.Addr(), goosc.NewMessage("/gloved/subscribe", "127.0.0.1"))
	if m = receiveMessage(t, app); m.Address != "/gloved/refused" || !strings.Contains(m.Arguments[0].(string), "usage") {
		t.Fatalf("got %v, want /gloved/refused with the usage", m)
	}
	sendMsg(t, app, h.Addr(), goosc.NewMessage("/gloved/unsubscribe", "127.0.0.1", int32(me.Port)))
	if m = receiveMessage(t, app); m.Address != "/gloved/unsubscribed" {
		t.Fatalf("got %v, want /gloved/unsubscribed", m)
	}
	if s := h.Subscribers(); len(s) != 0 {
		t.Fatalf("subscribers %v", s)
	}
}

// TestHostnamesResolve: a host name in /subscribe is looked up (off the
// receive path); one that does not resolve is refused with a reply.
func TestHostnamesResolve(t *testing.T) {
	h, rec, _ := testHub(t, Policy{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go h.resolveLoop(ctx)
	subscribe(t, h, "127.0.0.1:5000", "localhost", 5000)
	subscribe(t, h, "127.0.0.1:5000", "nowhere.invalid", 5001)
	subscribe(t, h, "127.0.0.1:5000", "quest.lan", 5002) // resolves, but to another host
	var rs []reply
	waitFor(t, "three replies", func() bool { rs = append(rs, rec.replies(t)...); return len(rs) == 3 })
	want := []string{"/gloved/subscribed [127.0.0.1 5000 10]", "/gloved/refused [nowhere.invalid: cannot resolve", "/gloved/refused [192.0.2.7:5002: "}
	for i, r := range rs {
		if got := r.m.Address + " " + fmt.Sprint(r.m.Arguments); !strings.HasPrefix(got, want[i]) || r.to != ap("127.0.0.1:5000") {
			t.Errorf("reply %d: %s to %v, want %s... to 127.0.0.1:5000", i, got, r.to, want[i])
		}
	}
	if s := h.Subscribers(); len(s) != 1 || s[0] != ap("127.0.0.1:5000") {
		t.Fatalf("subscribers %v", s)
	}
}

// TestRealResolver: "localhost" resolves through the system's resolver.
func TestRealResolver(t *testing.T) {
	h, app := startHub(t)
	me := app.LocalAddr().(*net.UDPAddr)
	sendMsg(t, app, h.Addr(), goosc.NewMessage("/gloved/subscribe", "localhost", int32(me.Port)))
	if m := receiveMessage(t, app); m.Address != "/gloved/subscribed" || m.Arguments[0] != "127.0.0.1" {
		t.Fatalf("got %v, want /gloved/subscribed 127.0.0.1", m)
	}
}

// TestLookupsAreBounded: host names wait in a short queue; when it is
// full, requests are refused at once instead of stalling the hub.
func TestLookupsAreBounded(t *testing.T) {
	h, rec, clk := testHub(t, Policy{})
	for i := range maxPendingLookups + 3 {
		clk.advance(time.Second) // past the reply limit
		subscribe(t, h, "127.0.0.1:5000", "localhost", 5000+i)
	}
	rs := rec.replies(t)
	if len(rs) != 3 || !strings.Contains(rs[0].m.Arguments[0].(string), "busy") || len(h.lookups) != maxPendingLookups {
		t.Fatalf("replies %v, %d queued", rs, len(h.lookups))
	}
}

// TestRepliesAreRateLimited: replies per source and in all are bounded
// each second, so the hub cannot be used to reflect traffic.
func TestRepliesAreRateLimited(t *testing.T) {
	h, rec, clk := testHub(t, Policy{})
	for range 20 {
		subscribe(t, h, "127.0.0.1:5000", "192.0.2.1", 5000)
	}
	if n := len(rec.replies(t)); n != RepliesPerSource || h.Stats.RepliesLimited.Load() != 20-RepliesPerSource {
		t.Fatalf("%d replies, %d limited; want %d, %d", n, h.Stats.RepliesLimited.Load(), RepliesPerSource, 20-RepliesPerSource)
	}
	clk.advance(time.Second)
	for i := range 200 {
		from := netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 1, byte(i / 250), byte(i % 250)}), 5000)
		h.handle(packet(t, "/gloved/subscribe", "192.0.2.1", int32(5000)), from)
	}
	if n := len(rec.replies(t)); n != RepliesPerSecond {
		t.Fatalf("%d replies to 200 sources in a second, want %d", n, RepliesPerSecond)
	}
}

func receiveMessage(t *testing.T, app *net.UDPConn) *goosc.Message {
	t.Helper()
	buf := make([]byte, 65536)
	app.SetReadDeadline(time.Now().Add(2 * time.Second))
	n, _, err := app.ReadFrom(buf)
	if err != nil {
		t.Fatal(err)
	}
	p, err := goosc.ParsePacket(string(buf[:n]))
	if err != nil {
		t.Fatal(err)
	}
	m, ok := p.(*goosc.Message)
	if !ok {
		t.Fatalf("got %T, want a message", p)
	}
	return m
}

// TestStrangersSendAddresses: a source outside osc.allow may only
// subscribe its own address, so it gets no DNS lookups done for it; the
// refusal, longer than the request, is not sent to an address that has
// not proven it receives (logged and counted instead).
func TestStrangersSendAddresses(t *testing.T) {
	h, rec, _ := testHub(t, Policy{})
	var logs logLines
	h.Log = logs.log
	subscribe(t, h, "192.0.2.7:5000", "quest.lan", 5000)
	rs := rec.replies(t)
	if len(h.lookups) != 0 || len(rs) != 0 || h.Stats.Refused.Load() != 1 || h.Stats.Withheld.Load() != 1 {
		t.Fatalf("replies %v, %d lookups queued, %d refused, %d withheld", rs, len(h.lookups), h.Stats.Refused.Load(), h.Stats.Withheld.Load())
	}
	if l := logs.all(); len(l) != 1 || !strings.Contains(l[0], "send your address") {
		t.Fatalf("log %q, want the reason", l)
	}
	subscribeProven(t, h, rec, "192.0.2.7:5000", "192.0.2.7", 5000)
	if s := h.Subscribers(); len(s) != 1 {
		t.Fatalf("a stranger could not subscribe its own address: %v", s)
	}
}

// TestUnprovenAddressesGetNoMoreThanTheySent: an address that has not
// proven it receives (no token, not loopback) gets at most one reply a
// second, no larger than the request it answers: 100 forged requests in
// a second buy one reply no larger than one of them; refusals and usage
// longer than the request are withheld and counted; 100 such addresses
// get at most UnprovenPerSecond replies in all. Loopback and a sender
// that sent its token get their refusals whole.
func TestUnprovenAddressesGetNoMoreThanTheySent(t *testing.T) {
	h, rec, clk := testHub(t, Policy{PerSource: 1})
	victim := netip.MustParseAddr("192.0.2.66")
	req := packet(t, "/gloved/subscribe", "192.0.2.66", int32(7000))
	for range 100 {
		h.handle(req, ap("192.0.2.66:7000"))
	}
	if n, bytes := rec.to(victim); n != 1 || bytes > len(req) || h.Stats.Withheld.Load() != 99 {
		t.Fatalf("100 forged requests of %d bytes: %d replies of %d bytes, %d withheld; want 1 of at most %d, 99",
			len(req), n, bytes, h.Stats.Withheld.Load(), len(req))
	}
	clk.advance(time.Second)
	rec.replies(t)
	for _, b := range [][]byte{
		packet(t, "/gloved/subscribe", "192.0.2.67", int32(7000)),  // another host: refused
		packet(t, "/gloved/subscribe", "192.0.2.66", int32(70000)), // usage
	} {
		h.handle(b, ap("192.0.2.66:7000"))
		clk.advance(time.Second)
	}
	if rs := rec.replies(t); len(rs) != 0 || h.Stats.Withheld.Load() != 101 {
		t.Fatalf("refusals longer than the request: %v sent, %d withheld", rs, h.Stats.Withheld.Load())
	}
	for i := range 100 {
		from := netip.AddrPortFrom(netip.AddrFrom4([4]byte{198, 51, 100, byte(i)}), 7000)
		h.handle(packet(t, "/gloved/subscribe", from.Addr().String(), int32(7000)), from)
	}
	if rs := rec.replies(t); len(rs) != UnprovenPerSecond {
		t.Fatalf("100 unproven addresses in a second: %d replies, want %d", len(rs), UnprovenPerSecond)
	}
	clk.advance(time.Second)
	subscribe(t, h, "127.0.0.1:5000", "192.0.2.67", 7000)
	if rs := rec.replies(t); len(rs) != 1 || rs[0].m.Address != "/gloved/refused" {
		t.Fatalf("loopback: %v, want the refusal", rs)
	}
	me := ap("192.0.2.7:5000")
	subscribeProven(t, h, rec, me.String(), "192.0.2.7", 5000)
	clk.advance(time.Second)
	subscribe(t, h, me.String(), "192.0.2.7", 5001)
	tok := tokenSent(t, rec, ap("192.0.2.7:5001"))
	h.handle(packet(t, "/gloved/subscribe", "192.0.2.7", int32(5001), tok), me)
	if rs := rec.replies(t); len(rs) != 1 || rs[0].m.Address != "/gloved/refused" || !strings.Contains(rs[0].m.Arguments[0].(string), "limit per source") {
		t.Fatalf("a sender with its token over the limit: %v, want the refusal", rs)
	}
}
