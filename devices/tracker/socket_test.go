package tracker

import (
	"errors"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// failing is a connection whose every read fails with err until it is
// closed, counting the reads.
type failing struct {
	err    error
	reads  atomic.Int64
	mu     sync.Mutex
	closed bool
}

func (f *failing) ReadFromUDPAddrPort([]byte) (int, netip.AddrPort, error) {
	f.reads.Add(1)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return 0, netip.AddrPort{}, net.ErrClosed
	}
	return 0, netip.AddrPort{}, f.err
}

func (f *failing) LocalAddr() net.Addr { return &net.UDPAddr{} }

func (f *failing) Close() error {
	f.mu.Lock()
	f.closed = true
	f.mu.Unlock()
	return nil
}

// TestAReadErrorThatPersistsBacksOffAndDoesNotSpin: a socket whose
// reads fail, not closed, reads again after 10 ms, then twice as long
// each time up to 1 s: over 300 ms a handful of reads, not a spinning
// loop's millions; once closed, serve returns.
func TestAReadErrorThatPersistsBacksOffAndDoesNotSpin(t *testing.T) {
	if got := []time.Duration{backoff(0), backoff(10 * time.Millisecond), backoff(600 * time.Millisecond), backoff(time.Second)}; got[0] != readBackoffMin || got[1] != 2*readBackoffMin || got[2] != readBackoffMax || got[3] != readBackoffMax {
		t.Fatalf("backoffs %v", got)
	}
	f := &failing{err: errors.New("recvfrom: no buffer space available")}
	s := &socket{conn: f}
	done := make(chan struct{})
	go func() { s.serve(); close(done) }()
	time.Sleep(300 * time.Millisecond)
	// 10+20+40+80+160 ms: 6 reads by 310 ms; a loaded machine reads fewer.
	if n := f.reads.Load(); n > 7 {
		t.Fatalf("%d reads of a failing socket in 300 ms: it spins", n)
	}
	f.Close()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("serve did not return once the socket closed")
	}
}
