package mdns

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"net"
	"net/netip"
	"sync"
	"syscall"
	"time"

	"golang.org/x/net/ipv4"
	"golang.org/x/sys/unix"
)

// The mDNS group and port (RFC 6762 section 3).
var (
	group     = netip.AddrFrom4([4]byte{224, 0, 0, 251})
	groupAddr = &net.UDPAddr{IP: net.IPv4(224, 0, 0, 251), Port: Port}
)

// Port is the mDNS port.
const Port = 5353

// received is one datagram and where it came from.
type received struct {
	b     []byte
	src   netip.AddrPort
	iface *Interface
}

// conn is the mDNS socket: 0.0.0.0:5353 shared with the machine's other
// mDNS stacks (SO_REUSEADDR and SO_REUSEPORT: avahi-daemon sets both,
// some stacks only one, and Linux lets sockets share a port when all set
// the same one), member of the group on the chosen interfaces only, and
// reading only what arrives on them.
type conn struct {
	pc     *ipv4.PacketConn
	ifaces []Interface
	own    sentPackets
}

// listen opens the socket on ifaces; it fails only when the port cannot
// be bound or no interface joins the group.
func listen(ifaces []Interface) (*conn, error) {
	lc := net.ListenConfig{Control: func(_, _ string, rc syscall.RawConn) error {
		var serr error
		err := rc.Control(func(fd uintptr) {
			for _, opt := range []int{unix.SO_REUSEADDR, unix.SO_REUSEPORT} {
				if serr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, opt, 1); serr != nil {
					return
				}
			}
			// Without this, Linux hands the socket every group any socket
			// of the machine joined, on any interface.
			serr = unix.SetsockoptInt(int(fd), unix.IPPROTO_IP, unix.IP_MULTICAST_ALL, 0)
		})
		return errors.Join(err, serr)
	}}
	pc, err := lc.ListenPacket(context.Background(), "udp4", fmt.Sprintf("0.0.0.0:%d", Port))
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("mdns: UDP port %d is held by a program that does not share it (`ss -ulpn sport = :%d` names it): stop it, or have it share the port (SO_REUSEADDR or SO_REUSEPORT, as avahi-daemon does): %w", Port, Port, err)
	}
	if err != nil {
		return nil, fmt.Errorf("mdns: UDP port %d: %w", Port, err)
	}
	p := ipv4.NewPacketConn(pc)
	c := &conn{pc: p}
	if err := p.SetControlMessage(ipv4.FlagInterface, true); err != nil {
		pc.Close()
		return nil, fmt.Errorf("mdns: %w", err)
	}
	p.SetMulticastTTL(255) // RFC 6762 section 11: receivers check it
	p.SetMulticastLoopback(true)
	var errs []error
	for _, i := range ifaces {
		if err := p.JoinGroup(&net.Interface{Index: i.Index, Name: i.Name}, groupAddr); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", i.Name, err))
			continue
		}
		c.ifaces = append(c.ifaces, i)
	}
	if len(c.ifaces) == 0 {
		pc.Close()
		return nil, fmt.Errorf("mdns: joining %v: %w", group, errors.Join(errs...))
	}
	return c, nil
}

// read returns the next datagram from one of the socket's interfaces,
// skipping the socket's own (looped back) and anything from elsewhere.
func (c *conn) read(buf []byte) (received, error) {
	for {
		n, cm, src, err := c.pc.ReadFrom(buf)
		if err != nil {
			return received{}, err
		}
		if cm == nil {
			continue
		}
		i := c.iface(cm.IfIndex)
		ua, ok := src.(*net.UDPAddr)
		if i == nil || !ok || c.own.was(buf[:n], ua.AddrPort().Addr()) {
			continue
		}
		return received{b: buf[:n], src: ua.AddrPort(), iface: i}, nil
	}
}

// iface returns the socket's interface of that index, or nil.
func (c *conn) iface(index int) *Interface {
	for k := range c.ifaces {
		if c.ifaces[k].Index == index {
			return &c.ifaces[k]
		}
	}
	return nil
}

// multicast sends b to the group through interface i only.
func (c *conn) multicast(b []byte, i *Interface) error {
	return c.send(b, i, groupAddr)
}

// unicast sends b to dst through interface i.
func (c *conn) unicast(b []byte, i *Interface, dst netip.AddrPort) error {
	return c.send(b, i, net.UDPAddrFromAddrPort(dst))
}

func (c *conn) send(b []byte, i *Interface, dst *net.UDPAddr) error {
	// The source address is set too: with only the interface, Linux sends
	// a multicast datagram on loopback from 0.0.0.0, which receivers
	// drop as not on the link (RFC 6762 section 11).
	src := i.Prefixes[0].Addr()
	c.own.add(b, src)
	c.pc.SetWriteDeadline(time.Now().Add(time.Second))
	_, err := c.pc.WriteTo(b, &ipv4.ControlMessage{IfIndex: i.Index, Src: src.AsSlice()}, dst)
	return err
}

func (c *conn) close() error { return c.pc.Close() }

// sentPackets remembers the socket's own datagrams for a few seconds, by
// their bytes and the address they were sent from: the group loops them
// back, and they must not be taken for another host's (two gloveds on one
// machine send from the same address and port, so only the bytes tell).
// The same bytes from another address are another host's: two browsers
// send byte-identical queries.
type sentPackets struct {
	mu   sync.Mutex
	sums map[ownKey]time.Time
}

type ownKey struct {
	sum uint64
	src netip.Addr
}

const ownFor = 5 * time.Second

func (s *sentPackets) add(b []byte, src netip.Addr) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	if s.sums == nil {
		s.sums = map[ownKey]time.Time{}
	}
	for k, t := range s.sums {
		if now.Sub(t) > ownFor {
			delete(s.sums, k)
		}
	}
	s.sums[ownKey{sum(b), src.Unmap()}] = now
}

// was reports whether b, received from src, is one of the socket's own.
func (s *sentPackets) was(b []byte, src netip.Addr) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.sums[ownKey{sum(b), src.Unmap()}]
	return ok && time.Since(t) <= ownFor
}

func sum(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}
