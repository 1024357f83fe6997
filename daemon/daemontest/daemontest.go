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
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		tb.Fatal(err)
	}
	c.SetReadBuffer(4 << 20) // a replay at full speed comes in bursts
	r := &Received{}
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
			b, ok := p.(*goosc.Bundle)
			if !ok {
				tb.Errorf("the daemon sent a bare message %v", p)
				continue
			}
			r.mu.Lock()
			r.bundles, r.at = append(r.bundles, b), append(r.at, time.Now())
			r.mu.Unlock()
		}
	}()
	tb.Cleanup(func() { c.Close() })
	return c, r
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
