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
// subscribe its own address, so it gets no DNS lookups done for it.
func TestStrangersSendAddresses(t *testing.T) {
	h, rec, _ := testHub(t, Policy{})
	subscribe(t, h, "192.0.2.7:5000", "quest.lan", 5000)
	rs := rec.replies(t)
	if len(h.lookups) != 0 || len(rs) != 1 || rs[0].m.Address != "/gloved/refused" || !strings.Contains(rs[0].m.Arguments[0].(string), "send your address") {
		t.Fatalf("replies %v, %d lookups queued", rs, len(h.lookups))
	}
	subscribe(t, h, "192.0.2.7:5000", "192.0.2.7", 5000)
	if s := h.Subscribers(); len(s) != 1 {
		t.Fatalf("a stranger could not subscribe its own address: %v", s)
	}
}
