package daemon

import (
	"encoding/binary"
	"fmt"
	"net"
	"net/netip"
	"os/exec"
	"sync"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"
	"golang.org/x/sys/unix"

	"github.com/gloved/gloved/internal/netns"
)

// In the test's private namespace, loopback also carries two addresses of
// TEST-NET-1 (RFC 5737), not loopback to the daemon's policy: the
// daemon's LAN address and a victim's.
var (
	lanAddr    = netip.MustParseAddr("192.0.2.1")
	victimAddr = netip.MustParseAddr("192.0.2.66")
)

// inLAN re-runs the test in a private network namespace whose loopback
// also holds lanAddr and victimAddr; it returns true there.
func inLAN(t *testing.T) bool {
	t.Helper()
	if !netns.Run(t) {
		return false
	}
	for _, a := range []netip.Addr{lanAddr, victimAddr} {
		if out, err := exec.Command("ip", "addr", "add", a.String()+"/32", "dev", "lo").CombinedOutput(); err != nil {
			t.Fatalf("ip addr add %s: %v %s", a, err, out)
		}
	}
	return true
}

// forger sends UDP datagrams with any source address: a raw IPv4
// socket, whose headers it writes itself (IPPROTO_RAW implies
// IP_HDRINCL, raw(7)).
type forger struct{ fd int }

func newForger(t *testing.T) *forger {
	t.Helper()
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_RAW, unix.IPPROTO_RAW)
	if err != nil {
		netns.Skipf(t, "no raw socket to forge a source address with: %v", err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	return &forger{fd}
}

// send sends payload from src to dst in one UDP datagram (checksum 0:
// none, which IPv4 allows; the kernel fills in the IP header's).
func (f *forger) send(t *testing.T, src, dst netip.AddrPort, payload []byte) {
	t.Helper()
	b := make([]byte, 28, 28+len(payload))
	b[0], b[8], b[9] = 0x45, 64, unix.IPPROTO_UDP // IPv4, 20-byte header; TTL; UDP
	binary.BigEndian.PutUint16(b[2:], uint16(len(b)+len(payload)))
	s, d := src.Addr().As4(), dst.Addr().As4()
	copy(b[12:16], s[:])
	copy(b[16:20], d[:])
	binary.BigEndian.PutUint16(b[20:], src.Port())
	binary.BigEndian.PutUint16(b[22:], dst.Port())
	binary.BigEndian.PutUint16(b[24:], uint16(8+len(payload)))
	b = append(b, payload...)
	if err := unix.Sendto(f.fd, b, 0, &unix.SockaddrInet4{Addr: d}); err != nil {
		t.Fatalf("sending a forged datagram: %v", err)
	}
}

// victim counts what arrives at a socket that never sends: the bytes of
// frame bundles and of anything else.
type victim struct {
	conn *net.UDPConn

	mu                             sync.Mutex
	frameBytes, otherBytes, frames int
}

func listenVictim(t *testing.T) *victim {
	t.Helper()
	c, err := net.ListenUDP("udp4", net.UDPAddrFromAddrPort(netip.AddrPortFrom(victimAddr, 0)))
	if err != nil {
		t.Fatal(err)
	}
	v := &victim{conn: c}
	done := make(chan struct{})
	t.Cleanup(func() { c.Close(); <-done })
	go func() {
		defer close(done)
		buf := make([]byte, 65536)
		for {
			n, err := c.Read(buf)
			if err != nil {
				return
			}
			v.mu.Lock()
			if n >= 8 && string(buf[:8]) == "#bundle\x00" {
				v.frameBytes += n
				v.frames++
			} else {
				v.otherBytes += n
			}
			v.mu.Unlock()
		}
	}()
	return v
}

func (v *victim) addr() netip.AddrPort { return v.conn.LocalAddr().(*net.UDPAddr).AddrPort() }

func (v *victim) counts() (frameBytes, otherBytes, frames int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.frameBytes, v.otherBytes, v.frames
}

// amplificationLease is the lease the forged-subscribe tests configure:
// short, for the test's sake; the factor grows with it.
const amplificationLease = 2 * time.Second

// TestAForgedSubscribeSendsTheVictimNoFrames is issue 28's first item: a
// host that forges a victim's source address on /subscribe (a raw
// socket, in a private namespace where the victim is an address of
// loopback the daemon listens beyond) gets no frame sent to the victim,
// and the victim receives no more bytes than the forged requests held.
// A client at that address that answers its token gets frames.
func TestAForgedSubscribeSendsTheVictimNoFrames(t *testing.T) {
	if !inLAN(t) {
		return
	}
	f := newForger(t)
	v := listenVictim(t)
	d, done, stop := startDaemon(t, 0, "forged.toml", oscBase+fmt.Sprintf("[osc]\nlisten = \"0.0.0.0:0\"\nlease_s = %.1f\n", amplificationLease.Seconds()))
	daemonAt := netip.AddrPortFrom(lanAddr, d.hub.Addr().(*net.UDPAddr).AddrPort().Port())
	req, err := goosc.NewMessage("/gloved/subscribe", victimAddr.String(), int32(v.addr().Port())).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	const forged = 20 // in the first second, as an attacker would
	for range forged {
		f.send(t, v.addr(), daemonAt, req)
	}
	time.Sleep(amplificationLease + time.Second)
	frameBytes, otherBytes, frames := v.counts()
	sent := forged * len(req)
	t.Logf("%d forged requests of %d bytes (%d in all); the victim received %d frames (%d bytes) and %d bytes of replies: amplification %.3g over a lease of %v",
		forged, len(req), sent, frames, frameBytes, otherBytes, float64(frameBytes+otherBytes)/float64(sent), amplificationLease)
	if frameBytes != 0 {
		t.Errorf("%d frames (%d bytes) went to the forged source", frames, frameBytes)
	}
	if frameBytes+otherBytes > sent {
		t.Errorf("the victim received %d bytes for %d forged", frameBytes+otherBytes, sent)
	}
	client, err := net.ListenUDP("udp4", net.UDPAddrFromAddrPort(netip.AddrPortFrom(victimAddr, 0)))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	me := client.LocalAddr().(*net.UDPAddr)
	send := func(args ...any) {
		b, _ := goosc.NewMessage("/gloved/subscribe", args...).MarshalBinary()
		if _, err := client.WriteToUDPAddrPort(b, daemonAt); err != nil {
			t.Fatal(err)
		}
	}
	send(victimAddr.String(), int32(me.Port))
	m, ok := readPacket(t, client).(*goosc.Message)
	if !ok || m.Address != "/gloved/validate" || len(m.Arguments) != 1 {
		t.Fatalf("got %v, want the token", m)
	}
	send(victimAddr.String(), int32(me.Port), m.Arguments[0])
	for frames := 0; frames < 3; {
		if _, ok := readPacket(t, client).(*goosc.Bundle); ok {
			frames++
		}
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
