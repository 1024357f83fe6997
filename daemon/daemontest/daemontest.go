package daemontest

import (
	"net"
	"slices"
	"sync"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"
)

// Received holds the bundles a receiver got, in order.
type Received struct {
	mu      sync.Mutex
	bundles []*goosc.Bundle
	at      []time.Time // when each bundle arrived
}

// All returns the bundles received so far.
func (r *Received) All() []*goosc.Bundle {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.bundles)
}

// Times returns when each bundle of All arrived.
func (r *Received) Times() []time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.at)
}

// Listen is a test's receiver: a UDP socket on loopback, closed when the
// test ends, that keeps every bundle and fails the test on a packet that
// does not decode or is not a bundle.
func Listen(tb testing.TB) (*net.UDPConn, *Received) {
	tb.Helper()
	r := &Received{}
	c := listen(tb, func(p goosc.Packet) {
		b, ok := p.(*goosc.Bundle)
		if !ok {
			tb.Errorf("the daemon sent a bare message %v", p)
			return
		}
		r.mu.Lock()
		r.bundles, r.at = append(r.bundles, b), append(r.at, time.Now())
		r.mu.Unlock()
	})
	return c, r
}

// Packet is one datagram as an app receives it: a bundle's messages and
// timetag, or a bare message (Bundle false).
type Packet struct {
	Bundle   bool
	Timetag  uint64
	Messages []*goosc.Message
}

// Packets holds the packets a receiver got, in order.
type Packets struct {
	mu  sync.Mutex
	all []Packet
}

// All returns the packets received so far.
func (r *Packets) All() []Packet {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.all)
}

// Messages returns every message received so far, in order.
func (r *Packets) Messages() []*goosc.Message {
	var out []*goosc.Message
	for _, p := range r.All() {
		out = append(out, p.Messages...)
	}
	return out
}

// Count returns how many messages to addr were received so far.
func (r *Packets) Count(addr string) int {
	n := 0
	for _, m := range r.Messages() {
		if m.Address == addr {
			n++
		}
	}
	return n
}

// ListenAny is a receiver for an output profile's packets: like Listen,
// but it keeps bare messages (VRChat takes them) as well as bundles.
func ListenAny(tb testing.TB) (*net.UDPConn, *Packets) {
	tb.Helper()
	r := &Packets{}
	c := listen(tb, func(p goosc.Packet) {
		var k Packet
		switch p := p.(type) {
		case *goosc.Bundle:
			k = Packet{Bundle: true, Timetag: p.Timetag.TimeTag(), Messages: p.Messages}
		case *goosc.Message:
			k = Packet{Messages: []*goosc.Message{p}}
		}
		r.mu.Lock()
		r.all = append(r.all, k)
		r.mu.Unlock()
	})
	return c, r
}

// listen opens a loopback socket, closed when the test ends, whose
// packets go to keep; one that does not decode fails the test.
func listen(tb testing.TB, keep func(goosc.Packet)) *net.UDPConn {
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		tb.Fatal(err)
	}
	c.SetReadBuffer(4 << 20) // a replay at full speed comes in bursts
	go func() {
		buf := make([]byte, 65536)
		for {
			n, _, err := c.ReadFrom(buf)
			if err != nil {
				return
			}
			p, err := goosc.ParsePacket(string(buf[:n]))
			if err != nil {
				tb.Errorf("the daemon sent an undecodable packet: %v", err)
				continue
			}
			keep(p)
		}
	}()
	tb.Cleanup(func() { c.Close() })
	return c
}

// Statuses returns hand's statuses on the wire in order, repeats folded.
func Statuses(bundles []*goosc.Bundle, hand string) []string {
	var out []string
	for _, b := range bundles {
		for _, m := range b.Messages {
			if m.Address == "/gloved/"+hand+"/status" && len(m.Arguments) == 1 {
				s, _ := m.Arguments[0].(string)
				if len(out) == 0 || out[len(out)-1] != s {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// Rates returns each status's measured sample rate (<prefix>/<hand>/rate)
// as it was sent, keyed by the status it followed.
func Rates(bundles []*goosc.Bundle, hand string) map[string][]float32 {
	out := map[string][]float32{}
	for _, b := range bundles {
		status := ""
		for _, m := range b.Messages {
			switch {
			case m.Address == "/gloved/"+hand+"/status" && len(m.Arguments) == 1:
				status, _ = m.Arguments[0].(string)
			case m.Address == "/gloved/"+hand+"/rate" && len(m.Arguments) == 1:
				if r, ok := m.Arguments[0].(float32); ok {
					out[status] = append(out[status], r)
				}
			}
		}
	}
	return out
}

// Frames counts hand's frames on the wire.
func Frames(bundles []*goosc.Bundle, hand string) int {
	n := 0
	for _, b := range bundles {
		for _, m := range b.Messages {
			if m.Address == "/gloved/"+hand+"/frame" {
				n++
			}
		}
	}
	return n
}

// InOrder reports whether want occurs in got in order, others between.
func InOrder(got, want []string) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	return i == len(want)
}

// JointSpan returns how far joint j (its index in <prefix>/<hand>/joints)
// of hand moved over the bundles: its largest angle on the wire less its
// least, 0 if it was never sent.
func JointSpan(bundles []*goosc.Bundle, hand string, j int) float32 {
	lo, hi, seen := float32(0), float32(0), false
	for _, b := range bundles {
		for _, m := range b.Messages {
			if m.Address != "/gloved/"+hand+"/joints" || len(m.Arguments) <= j {
				continue
			}
			if a, ok := m.Arguments[j].(float32); ok {
				if !seen {
					lo, hi, seen = a, a, true
				}
				lo, hi = min(lo, a), max(hi, a)
			}
		}
	}
	return hi - lo
}
