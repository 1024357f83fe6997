package netns

import (
	"net"
	"testing"
	"time"
)

// TestRunGivesLoopbackWithMulticast: inside, loopback is the only
// interface, and a datagram to the mDNS group sent through it comes back
// to a socket that joined the group on it.
func TestRunGivesLoopbackWithMulticast(t *testing.T) {
	if !Run(t) {
		return
	}
	lo, err := net.InterfaceByName("lo")
	if err != nil {
		t.Fatal(err)
	}
	group := &net.UDPAddr{IP: net.IPv4(224, 0, 0, 251), Port: 5353}
	c, err := net.ListenMulticastUDP("udp4", lo, group)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	out, err := net.DialUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)}, group)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if _, err := out.Write([]byte("hello")); err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 16)
	n, _, err := c.ReadFromUDP(buf)
	if err != nil || string(buf[:n]) != "hello" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
}
