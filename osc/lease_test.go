package osc

import (
	"context"
	"fmt"
	"net/netip"
	"reflect"
	"slices"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/internal/uptime"
)

// TestLeaseExpiresUnlessRenewed: a subscription lasts Policy.Lease from
// its last renewal; frames stop going to it once it lapses.
func TestLeaseExpiresUnlessRenewed(t *testing.T) {
	h, rec, clk := testHub(t, Policy{Lease: 10 * time.Second})
	me := ap("127.0.0.1:5000")
	frame := [][]byte{[]byte("#bundle\x00")}
	subscribe(t, h, "127.0.0.1:5000", "127.0.0.1", 5000)
	sentTo := func() []netip.AddrPort {
		rec.destinations()
		h.Send(frame)
		return rec.destinations()
	}
	if got := sentTo(); !slices.Equal(got, []netip.AddrPort{me}) {
		t.Fatalf("sent to %v, want %v", got, me)
	}
	clk.advance(9 * time.Second)
	subscribe(t, h, "127.0.0.1:5000", "127.0.0.1", 5000) // renewal
	clk.advance(9 * time.Second)
	if got := sentTo(); len(got) != 1 || len(h.Subscribers()) != 1 {
		t.Fatalf("18 s in, renewed at 9 s: sent to %v, subscribers %v", got, h.Subscribers())
	}
	clk.advance(1001 * time.Millisecond)
	if got := sentTo(); len(got) != 0 {
		t.Fatalf("lapsed lease still receives: %v", got)
	}
	if len(h.Subscribers()) != 0 || h.Stats.Expired.Load() != 1 {
		t.Fatalf("subscribers %v, expired %d", h.Subscribers(), h.Stats.Expired.Load())
	}
}

// TestSubscribersExpireWithoutTraffic: Subscribers forgets lapsed leases
// even when no frame is sent.
func TestSubscribersExpireWithoutTraffic(t *testing.T) {
	h, _, clk := testHub(t, Policy{})
	subscribe(t, h, "127.0.0.1:5000", "127.0.0.1", 5000)
	clk.advance(DefaultLease + time.Millisecond)
	if s := h.Subscribers(); len(s) != 0 {
		t.Fatalf("subscribers after the default lease: %v", s)
	}
}

// TestLeasesPerSource: one bundle of 40 subscriptions from one address
// takes at most PerSource slots; other sources still get theirs, up to
// MaxSubscribers in all.
func TestLeasesPerSource(t *testing.T) {
	h, _, _ := testHub(t, Policy{})
	var ms []*goosc.Message
	for p := range 40 {
		ms = append(ms, goosc.NewMessage("/gloved/subscribe", "127.0.0.1", int32(6000+p)))
	}
	h.handle(bundle(t, ms...), ap("127.0.0.1:6000"))
	if n := len(h.Subscribers()); n != DefaultPerSource {
		t.Fatalf("one source holds %d subscriptions, want %d", n, DefaultPerSource)
	}
	if r := h.Stats.Refused.Load(); r != 40-DefaultPerSource {
		t.Fatalf("refused %d, want %d", r, 40-DefaultPerSource)
	}
	for i := 2; i < 10; i++ {
		for p := range DefaultPerSource {
			host := fmt.Sprintf("127.0.0.%d", i)
			subscribe(t, h, host+":7000", host, 7000+p)
		}
	}
	if n := len(h.Subscribers()); n != MaxSubscribers {
		t.Fatalf("%d subscribers, want the limit %d", n, MaxSubscribers)
	}
	h.SetPolicy(Policy{PerSource: 2})
	subscribe(t, h, "127.0.0.1:6000", "127.0.0.1", 6000) // a renewal is not a new slot
	if n := len(h.Subscribers()); n != MaxSubscribers {
		t.Fatalf("a renewal changed the count to %d", n)
	}
}

// TestUnsubscribeOnlyItself: a subscription is cancelled by the address
// that made it (any port; loopback addresses are one machine) or by its
// destination, by nobody else.
func TestUnsubscribeOnlyItself(t *testing.T) {
	h, rec, _ := testHub(t, Policy{Allow: []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}})
	subscribe(t, h, "127.0.0.1:5000", "127.0.0.1", 5000)
	subscribeProven(t, h, rec, "127.0.0.1:5001", "192.0.2.9", 9000)
	for _, from := range []string{"203.0.113.4:5000", "192.0.2.10:5000"} {
		unsubscribe(t, h, from, "127.0.0.1", 5000)
		unsubscribe(t, h, from, "192.0.2.9", 9000)
	}
	if n := len(h.Subscribers()); n != 2 || h.Stats.Refused.Load() != 4 {
		t.Fatalf("strangers unsubscribed: %d left, refused %d", n, h.Stats.Refused.Load())
	}
	unsubscribe(t, h, "192.0.2.9:40000", "192.0.2.9", 9000) // the destination opts out
	unsubscribe(t, h, "[::1]:41000", "127.0.0.1", 5000)     // the subscriber's machine, from another port
	if s := h.Subscribers(); len(s) != 0 {
		t.Fatalf("left: %v", s)
	}
}

// TestNarrowerPolicyDropsSubscriptions: a new policy ends the
// subscriptions it no longer permits.
func TestNarrowerPolicyDropsSubscriptions(t *testing.T) {
	h, rec, _ := testHub(t, Policy{Allow: []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}})
	subscribeProven(t, h, rec, "127.0.0.1:5000", "192.0.2.9", 9000)
	subscribe(t, h, "127.0.0.1:5000", "127.0.0.1", 5000)
	if n := len(h.Subscribers()); n != 2 {
		t.Fatalf("%d subscribers, want 2", n)
	}
	h.SetPolicy(Policy{})
	if s := h.Subscribers(); !slices.Equal(s, []netip.AddrPort{ap("127.0.0.1:5000")}) {
		t.Fatalf("subscribers %v", s)
	}
}

// TestSubscribedTargetGetsEachFrameOnce: an app that subscribes the
// address it is already a fixed target at receives each frame once.
func TestSubscribedTargetGetsEachFrameOnce(t *testing.T) {
	h, rec, _ := testHub(t, Policy{Lease: 10 * time.Second})
	if err := h.AddTarget("127.0.0.1:5000"); err != nil {
		t.Fatal(err)
	}
	subscribe(t, h, "127.0.0.1:5000", "127.0.0.1", 5000)
	rec.destinations()
	h.Send([][]byte{[]byte("#bundle\x00")})
	if got := rec.destinations(); !slices.Equal(got, []netip.AddrPort{ap("127.0.0.1:5000")}) {
		t.Fatalf("sent to %v, want the target once", got)
	}
}

// TestLeasesRunOnTheMonotonicClock: a hub reads the process's monotonic
// clock (uptime.Now), never the wall clock, so setting the system's clock
// back or forward neither stretches nor cuts a lease; with its clock set
// to a reading far from any wall time, a lease lasts exactly Policy.Lease
// of that clock, and the reply limit's second is that clock's.
func TestLeasesRunOnTheMonotonicClock(t *testing.T) {
	if got, want := reflect.ValueOf(newHub("/gloved").clock).Pointer(), reflect.ValueOf(uptime.Now).Pointer(); got != want {
		t.Fatal("a new hub's clock is not uptime.Now, the monotonic clock")
	}
	h, rec, clk := testHub(t, Policy{Lease: 10 * time.Second})
	subscribe(t, h, "127.0.0.1:5000", "127.0.0.1", 5000)
	clk.advance(10*time.Second - time.Nanosecond)
	if s := h.Subscribers(); len(s) != 1 {
		t.Fatalf("a nanosecond before the lease ends: subscribers %v", s)
	}
	clk.advance(time.Nanosecond)
	if s := h.Subscribers(); len(s) != 0 {
		t.Fatalf("at the lease's end: subscribers %v", s)
	}
	rec.replies(t)
	for range RepliesPerSource + 1 {
		subscribe(t, h, "127.0.0.1:5000", "127.0.0.1", 5000)
	}
	clk.advance(time.Second)
	subscribe(t, h, "127.0.0.1:5000", "127.0.0.1", 5000)
	if n, limited := len(rec.replies(t)), h.Stats.RepliesLimited.Load(); n != RepliesPerSource+1 || limited != 1 {
		t.Fatalf("%d replies, %d limited; want %d, 1 (a new second of the hub's clock)", n, limited, RepliesPerSource+1)
	}
}

// TestLeasesBeyondLoopbackWaitForTheirToken is issue 28's first item at
// the hub: a subscription of an address that is not loopback gets no
// frame and no lease, only the destination's token, in one reply no
// larger than the request; the request again with the token (from the
// destination) takes the lease; a token for another port is refused; a
// renewal without the token renews nothing. Loopback needs no round
// trip.
func TestLeasesBeyondLoopbackWaitForTheirToken(t *testing.T) {
	h, rec, clk := testHub(t, Policy{Lease: 10 * time.Second})
	frame := [][]byte{[]byte("#bundle\x00")}
	sentTo := func() []netip.AddrPort {
		rec.destinations()
		h.Send(frame)
		return rec.destinations()
	}
	me := ap("192.0.2.7:5000")
	req := packet(t, "/gloved/subscribe", "192.0.2.7", int32(5000))
	h.handle(req, me)
	n, bytes := rec.to(me.Addr())
	tok := tokenSent(t, rec, me)
	if n != 1 || bytes > len(req) || h.Stats.Challenges.Load() != 1 {
		t.Fatalf("%d replies of %d bytes for a request of %d, %d challenges; want one no larger", n, bytes, len(req), h.Stats.Challenges.Load())
	}
	if got := sentTo(); len(got) != 0 || len(h.Subscribers()) != 0 {
		t.Fatalf("before the token came back: frames to %v, subscribers %v", got, h.Subscribers())
	}
	h.handle(packet(t, "/gloved/subscribe", "192.0.2.7", int32(5001), tok), me)
	if len(h.Subscribers()) != 0 || h.Stats.BadTokens.Load() != 1 {
		t.Fatalf("another port's token: subscribers %v, %d bad tokens", h.Subscribers(), h.Stats.BadTokens.Load())
	}
	clk.advance(time.Second)
	rec.replies(t)
	h.handle(packet(t, "/gloved/subscribe", "192.0.2.7", int32(5000), tok), me)
	if rs := rec.replies(t); len(rs) != 1 || rs[0].m.Address != "/gloved/subscribed" || rs[0].to != me {
		t.Fatalf("with its token: replies %v, want the acknowledgement", rs)
	}
	if got := sentTo(); !slices.Equal(got, []netip.AddrPort{me}) {
		t.Fatalf("with its token: frames to %v", got)
	}
	clk.advance(9 * time.Second)
	h.handle(req, me) // a renewal without the token
	tokenSent(t, rec, me)
	clk.advance(time.Second)
	if got := sentTo(); len(got) != 0 {
		t.Fatalf("a renewal without the token renewed the lease: frames to %v", got)
	}
	subscribe(t, h, "127.0.0.1:6000", "127.0.0.1", 6000)
	if got := sentTo(); !slices.Equal(got, []netip.AddrPort{ap("127.0.0.1:6000")}) || h.Stats.Challenges.Load() != 2 {
		t.Fatalf("loopback: frames to %v, %d challenges; want frames at once, no challenge", got, h.Stats.Challenges.Load())
	}
}

// TestATrustedSourcesThirdAddressProvesItselfToo: a trusted source that
// subscribes another address osc.allow lists (what a forged source would
// do) gets no frames sent there until the token, which went to that
// address and not to the source, comes back; the lease is then the
// source's.
func TestATrustedSourcesThirdAddressProvesItselfToo(t *testing.T) {
	h, rec, _ := testHub(t, Policy{Allow: []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}})
	subscribe(t, h, "192.0.2.10:4000", "192.0.2.9", 9000)
	if n, _ := rec.to(netip.MustParseAddr("192.0.2.10")); n != 0 || len(h.Subscribers()) != 0 {
		t.Fatalf("%d replies to the source, subscribers %v; want none", n, h.Subscribers())
	}
	tok := tokenSent(t, rec, ap("192.0.2.9:9000"))
	h.handle(packet(t, "/gloved/subscribe", "192.0.2.9", int32(9000), tok), ap("192.0.2.10:4000"))
	if s := h.Subscribers(); !slices.Equal(s, []netip.AddrPort{ap("192.0.2.9:9000")}) {
		t.Fatalf("with the token relayed: subscribers %v", s)
	}
	unsubscribe(t, h, "192.0.2.10:4001", "192.0.2.9", 9000) // the subscriber's machine
	if s := h.Subscribers(); len(s) != 0 {
		t.Fatalf("the subscriber could not unsubscribe: %v", s)
	}
}

// TestRenewalsGetANewTokenBeforeTheirsRunsOut: a renewal with a token
// under the previous key renews the lease and is sent a new token, which
// the next renewals carry; the old one is refused after another rotation.
func TestRenewalsGetANewTokenBeforeTheirsRunsOut(t *testing.T) {
	h, rec, clk := testHub(t, Policy{Lease: MaxLease})
	me := ap("192.0.2.7:5000")
	subscribe(t, h, me.String(), "192.0.2.7", 5000)
	old := tokenSent(t, rec, me)
	renew := func(tok string) []reply {
		h.handle(packet(t, "/gloved/subscribe", "192.0.2.7", int32(5000), tok), me)
		return rec.replies(t)
	}
	if rs := renew(old); len(rs) != 1 || rs[0].m.Address != "/gloved/subscribed" {
		t.Fatalf("with a fresh token: %v", rs)
	}
	clk.advance(TokenRotation)
	rs := renew(old)
	if len(rs) != 2 || rs[0].m.Address != "/gloved/subscribed" || rs[1].m.Address != "/gloved/validate" || rs[1].to != me {
		t.Fatalf("with a stale token: %v; want the acknowledgement and a new token", rs)
	}
	fresh := rs[1].m.Arguments[0].(string)
	clk.advance(TokenRotation)
	if rs := renew(fresh); len(rs) != 2 || rs[0].m.Address != "/gloved/subscribed" {
		t.Fatalf("with the new token, one rotation on: %v", rs)
	}
	bad := h.Stats.BadTokens.Load()
	if rs := renew(old); len(rs) != 1 || rs[0].m.Address != "/gloved/validate" || h.Stats.BadTokens.Load() != bad+1 {
		t.Fatalf("with the token two rotations old: %v, %d bad tokens", rs, h.Stats.BadTokens.Load()-bad)
	}
}

// TestUnsubscribingNothingIsRefusedSayingSo: an unsubscribe with nothing
// to end (done already, a lease run out, a port mistyped, which would
// leave the stream running at the real one) is refused with the reason,
// not answered unsubscribed; a host name resolving to several addresses
// ends the one subscribed.
func TestUnsubscribingNothingIsRefusedSayingSo(t *testing.T) {
	h, rec, clk := testHub(t, Policy{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go h.resolveLoop(ctx)
	answers := func(n int) []string {
		t.Helper()
		var rs []reply
		waitFor(t, fmt.Sprintf("%d replies", n), func() bool { rs = append(rs, rec.replies(t)...); return len(rs) >= n })
		var out []string
		for _, r := range rs {
			out = append(out, r.m.Address+" "+fmt.Sprint(r.m.Arguments))
		}
		return out
	}
	subscribe(t, h, "127.0.0.1:5000", "127.0.0.1", 5000)
	subscribe(t, h, "127.0.0.1:5000", "127.0.0.1", 5002)
	clk.advance(time.Second) // a new window of replies, each of which goes to 127.0.0.1
	rec.replies(t)           // and forgets them
	unsubscribe(t, h, "127.0.0.1:5000", "127.0.0.1", 5000)
	unsubscribe(t, h, "127.0.0.1:5000", "127.0.0.1", 5000) // again
	unsubscribe(t, h, "127.0.0.1:5000", "127.0.0.1", 5001) // mistyped
	want := []string{
		"/gloved/unsubscribed [127.0.0.1 5000]",
		"/gloved/refused [127.0.0.1:5000: no subscription (none was made, or its lease ran out)]",
		"/gloved/refused [127.0.0.1:5001: no subscription (none was made, or its lease ran out)]",
	}
	if got := answers(3); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("answers %q, want %q", got, want)
	}
	clk.advance(time.Hour) // 5002's lease has run out
	rec.replies(t)         // and forgets them
	unsubscribe(t, h, "127.0.0.1:5000", "127.0.0.1", 5002)
	subscribe(t, h, "127.0.0.1:5000", "127.0.0.1", 5003)
	unsubscribe(t, h, "127.0.0.1:5000", "localhost", 5003) // ::1 and 127.0.0.1
	want = []string{
		"/gloved/refused [127.0.0.1:5002: no subscription (none was made, or its lease ran out)]",
		fmt.Sprintf("/gloved/subscribed [127.0.0.1 5003 %v]", DefaultLease.Seconds()),
		"/gloved/unsubscribed [localhost 5003]",
	}
	if got := answers(3); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("answers %q, want %q", got, want)
	}
}
