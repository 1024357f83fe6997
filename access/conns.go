package access

import (
	"net"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// capped is a listener that holds at most max connections. One more
// closes the connection that has waited longest for a request (idle
// between requests, or not yet past its request's head): a thousand
// connections left open cost a thousand others their turn, never the
// server its file descriptors nor a new client its answer. When every
// connection is busy (a response being written, a WebSocket), the new
// one is closed at once. Its track method must be the server's
// http.Server.ConnState.
type capped struct {
	net.Listener
	max    int
	source func(netip.Addr) bool // the sources served (nil: all)

	mu    sync.Mutex
	conns map[*conn]struct{}

	evicted, refused atomic.Uint64
}

// conn is a connection the listener counts until it is closed.
type conn struct {
	net.Conn
	l     *capped
	state http.ConnState // under l.mu
	since time.Time      // when it entered state, under l.mu
	once  sync.Once
	// stranger: from a source the server refuses; it evicts no one.
	stranger bool
}

// Close closes the connection and frees its place.
func (c *conn) Close() error {
	c.once.Do(func() { c.l.remove(c) })
	return c.Conn.Close()
}

func newCapped(ln net.Listener, max int, source func(netip.Addr) bool) *capped {
	return &capped{Listener: ln, max: max, source: source, conns: map[*conn]struct{}{}}
}

// Accept returns the next connection that gets a place.
func (l *capped) Accept() (net.Conn, error) {
	for {
		nc, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		c := &conn{Conn: nc, l: l, state: http.StateNew, since: time.Now(), stranger: l.stranger(nc.RemoteAddr())}
		if l.admit(c) {
			return c, nil
		}
		l.refused.Add(1)
		nc.Close()
	}
}

// stranger reports whether a connection from remote is one the server
// will refuse (l.source says; nil: none is).
func (l *capped) stranger(remote net.Addr) bool {
	if l.source == nil {
		return false
	}
	ap, err := netip.ParseAddrPort(remote.String())
	return err != nil || !l.source(ap.Addr())
}

// admit gives c a place, closing the longest waiting connection if none
// is free; it reports false if every connection is busy, or if none is
// free and c is a stranger's: a source the server refuses takes a free
// place (to be answered why), never another client's.
func (l *capped) admit(c *conn) bool {
	l.mu.Lock()
	var victim *conn
	if len(l.conns) >= l.max {
		if c.stranger {
			l.mu.Unlock()
			return false
		}
		for o := range l.conns {
			if (o.state == http.StateNew || o.state == http.StateIdle) && (victim == nil || o.since.Before(victim.since)) {
				victim = o
			}
		}
		if victim == nil {
			l.mu.Unlock()
			return false
		}
		delete(l.conns, victim)
	}
	l.conns[c] = struct{}{}
	l.mu.Unlock()
	if victim != nil {
		l.evicted.Add(1)
		victim.Conn.Close() // its server goroutine reads an error and ends
	}
	return true
}

func (l *capped) remove(c *conn) {
	l.mu.Lock()
	delete(l.conns, c)
	l.mu.Unlock()
}

// track follows a connection's state: net/http's ConnState hook.
func (l *capped) track(nc net.Conn, st http.ConnState) {
	c, ok := nc.(*conn)
	if !ok {
		return
	}
	if st == http.StateClosed {
		c.Close()
		return
	}
	l.mu.Lock()
	c.state, c.since = st, time.Now()
	l.mu.Unlock()
}

// held is how many connections hold a place.
func (l *capped) held() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.conns)
}
