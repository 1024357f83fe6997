package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/miekg/dns"
	"golang.org/x/sys/unix"

	"github.com/gloved/gloved/osc"
)

// forgeApps multicasts, from port 5353 as a responder does, one mDNS
// response naming n instances VRChat-Client-<prefix><k> of _osc._udp, each
// at 127.0.0.1 and the port of its socket.
func forgeApps(t *testing.T, prefix string, socks []*net.UDPConn) {
	t.Helper()
	lc := net.ListenConfig{Control: func(_, _ string, rc syscall.RawConn) error {
		var serr error
		rc.Control(func(fd uintptr) {
			for _, opt := range []int{unix.SO_REUSEADDR, unix.SO_REUSEPORT} {
				if err := unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, opt, 1); err != nil {
					serr = err
				}
			}
		})
		return serr
	}}
	c, err := lc.ListenPacket(context.Background(), "udp4", "127.0.0.1:5353") // bound, so that the source is an address of lo
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	m := new(dns.Msg)
	m.Response, m.Authoritative = true, true
	for k, s := range socks {
		inst := fmt.Sprintf("VRChat-Client-%s%02d._osc._udp.local.", prefix, k)
		host := fmt.Sprintf("forged-%s%02d.local.", prefix, k)
		for _, line := range []string{
			"_osc._udp.local. 4500 IN PTR " + inst,
			fmt.Sprintf("%s 120 IN SRV 0 0 %d %s", inst, s.LocalAddr().(*net.UDPAddr).Port, host),
			inst + ` 4500 IN TXT "txtvers=1"`,
			host + " 120 IN A 127.0.0.1",
		} {
			rr, err := dns.NewRR(line)
			if err != nil {
				t.Fatal(err)
			}
			m.Answer = append(m.Answer, rr)
		}
	}
	b, err := m.Pack()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WriteTo(b, &net.UDPAddr{IP: net.IPv4(224, 0, 0, 251), Port: 5353}); err != nil {
		t.Fatal(err)
	}
}

// TestAnMDNSFloodDoesNotMultiplyTheDestinations: forged mDNS responses
// naming 40 VRChat clients make gloved send to MaxFoundPerGlob of them,
// not 40; those sent to first keep their places as more come. It asserts
// frames within a second: it runs alone (not t.Parallel).
func TestAnMDNSFloodDoesNotMultiplyTheDestinations(t *testing.T) {
	if !inNamespace(t) {
		return
	}
	var socks []*net.UDPConn
	for range 40 {
		c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		socks = append(socks, c)
	}
	path := filepath.Join(t.TempDir(), "gloved.toml")
	if err := os.WriteFile(path, []byte(vrchatConfig("right")), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startGloved(t, "gloved run", "run", "-c", path, "--status=false")
	p.logLine(t, "oscquery: advertised over mDNS")
	forgeApps(t, "A", socks[:8])
	p.logLine(t, "found an app to send to")
	for _, s := range socks[:8] {
		if !receives(t, s, "/gloved/right/frame") {
			t.Fatalf("one of the first 8 apps gets no frames:\n%s", p.errs.String())
		}
	}
	forgeApps(t, "B", socks[8:])
	p.logLine(t, "this one waits")
	// The browser has taken every answer by now; in a second more a socket
	// frames go to holds some (100 a second), one they do not holds none.
	for _, s := range socks {
		drain(s)
	}
	time.Sleep(time.Second)
	sent := 0
	for k, s := range socks {
		got := frameAt(t, s, time.Millisecond) != ""
		if got {
			sent++
		}
		if got != (k < 8) {
			t.Errorf("app %d of 40: frames %v, want %v (the first found keep their places)", k, got, k < 8)
		}
	}
	if sent != osc.MaxFoundPerGlob {
		t.Errorf("frames go to %d of 40 forged apps, want %d", sent, osc.MaxFoundPerGlob)
	}
}

// drain discards what c has received so far.
func drain(c *net.UDPConn) {
	buf := make([]byte, 1<<16)
	for {
		c.SetReadDeadline(time.Now())
		if _, err := c.Read(buf); err != nil {
			return
		}
	}
}
