package netns

import (
	"fmt"
	"net"
	"strings"
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

// recorder is a testing.TB that records Skipf and Fatalf instead of
// ending the test.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Skipf(format string, args ...any)  { r.skipped = fmt.Sprintf(format, args...) }
func (r *recorder) Fatalf(format string, args ...any) { r.failed = fmt.Sprintf(format, args...) }

// TestSkipfFailsWhereRequired: a missing namespace or peer skips the
// test, or fails it, saying why, when GLOVED_REQUIRE_PEERS=1 (CI).
func TestSkipfFailsWhereRequired(t *testing.T) {
	for _, v := range []string{"", "0", "1"} {
		t.Setenv(RequirePeers, v)
		r := &recorder{TB: t}
		Skipf(r, "no %s", "avahi-daemon")
		if required := v == "1"; required != (r.failed != "") || required == (r.skipped != "") ||
			!strings.Contains(r.failed+r.skipped, "no avahi-daemon") {
			t.Errorf("%s=%q: skipped %q, failed %q", RequirePeers, v, r.skipped, r.failed)
		}
	}
}
