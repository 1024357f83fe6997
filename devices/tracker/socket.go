package tracker

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"syscall"
	"time"
)

// A tracker sends both hands to one port (a VMC performer does), and a
// config has a [[hand]] for each: the hands listening on one address
// share its socket, each taking every datagram. A SIGHUP's new daemon
// opens its hands while the old one's are open: it joins the sockets
// they hold.

// maxDatagram is the largest datagram read; a longer one is cut off and
// then malformed.
const maxDatagram = 65536

// queued is how many datagrams wait for a hand's reader: more, and the
// newest is dropped (a reader that fell behind catches up on the next).
const queued = 8

// datagram is one datagram for a hand: its bytes in a buffer of the
// hand's own, and its source.
type datagram struct {
	buf *[maxDatagram]byte
	n   int
	src netip.AddrPort
}

// inbox is one hand's share of a socket: the datagrams for its reader,
// and the free buffers to fill.
type inbox struct {
	in, free chan datagram
}

func newInbox() *inbox {
	b := &inbox{in: make(chan datagram, queued), free: make(chan datagram, queued)}
	for range queued {
		b.free <- datagram{buf: new([maxDatagram]byte)}
	}
	return b
}

// offer copies a datagram for the hand, unless its reader has all its
// buffers.
func (b *inbox) offer(p []byte, src netip.AddrPort) {
	select {
	case d := <-b.free:
		d.n, d.src = copy(d.buf[:], p), src
		b.in <- d
	default:
	}
}

// conn is a socket's UDP connection (a *net.UDPConn; a test's failing
// one).
type conn interface {
	ReadFromUDPAddrPort(b []byte) (int, netip.AddrPort, error)
	LocalAddr() net.Addr
	Close() error
}

// socket is one listening address and the hands that read it.
type socket struct {
	addr  string
	conn  conn
	mu    sync.Mutex
	boxes []*inbox
}

var sockets = struct {
	sync.Mutex
	m map[string]*socket
}{m: map[string]*socket{}}

// join adds an inbox to the socket at addr, opening it if no hand holds
// it yet.
func join(addr netip.AddrPort, b *inbox) (*socket, error) {
	sockets.Lock()
	defer sockets.Unlock()
	key := addr.String()
	s := sockets.m[key]
	if s == nil {
		conn, err := net.ListenUDP("udp", net.UDPAddrFromAddrPort(addr))
		if err != nil {
			if errors.Is(err, syscall.EADDRINUSE) {
				return nil, fmt.Errorf("listen = %q: the port is in use (another app, or another gloved?): choose a free port", key)
			}
			return nil, fmt.Errorf("listen = %q: %w", key, err)
		}
		s = &socket{addr: key, conn: conn}
		sockets.m[key] = s
		go s.serve()
	}
	s.mu.Lock()
	s.boxes = append(s.boxes, b)
	s.mu.Unlock()
	return s, nil
}

// leave removes an inbox; the last to leave closes the socket.
func (s *socket) leave(b *inbox) {
	sockets.Lock()
	defer sockets.Unlock()
	s.mu.Lock()
	for i, x := range s.boxes {
		if x == b {
			s.boxes = append(s.boxes[:i], s.boxes[i+1:]...)
			break
		}
	}
	last := len(s.boxes) == 0
	s.mu.Unlock()
	if last {
		delete(sockets.m, s.addr)
		s.conn.Close()
	}
}

// Read errors other than the socket's closing back off: the first
// waits readBackoffMin, each next one twice as long, readBackoffMax at
// most, so that an error that persists does not spin a core.
const (
	readBackoffMin = 10 * time.Millisecond
	readBackoffMax = time.Second
)

// backoff is the wait after a read error that follows one of wait (0:
// the first).
func backoff(wait time.Duration) time.Duration {
	return min(max(2*wait, readBackoffMin), readBackoffMax)
}

// serve reads the socket until it closes, offering each datagram to
// every hand that reads it.
func (s *socket) serve() {
	buf := make([]byte, maxDatagram)
	var wait time.Duration
	for {
		n, src, err := s.conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			wait = backoff(wait)
			time.Sleep(wait)
			continue
		}
		wait = 0
		s.mu.Lock()
		for _, b := range s.boxes {
			b.offer(buf[:n], src)
		}
		s.mu.Unlock()
	}
}
