package main

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// A port a test picks is one it then tells a daemon (or watch) to
// listen on, or names as where nothing listens: between the pick and
// that bind nothing else may take it. The kernel hands a bind to port 0
// and every outgoing connection a port of its ephemeral range
// (net.ipv4.ip_local_port_range), and the tests running in parallel, their
// daemons, emulators and browsers, do both all the time: a port picked by
// binding port 0 and closing it can be handed to one of them before the
// daemon binds it. A port below that range is handed to no one who does
// not name it, so the pick is drawn from there, never twice in a test
// run, and checked free by binding it.

// pickFloor is the lowest port picked: above the ports services and the
// other packages' tests name (5000, 8080, 9000 to 9600) and those
// TestSIGTERMUnderASubscribeFlood subscribes (20000 to 24999).
const pickFloor = 25000

// picked are the ports handed out in this test run.
var picked = struct {
	sync.Mutex
	ports map[int]bool
}{ports: map[int]bool{}}

// freeUDP returns a loopback UDP address nothing listens on, which no
// other test of the run is given and no bind to port 0 is handed.
func freeUDP(t *testing.T) string {
	t.Helper()
	return pickPort(t, "udp")
}

// freePort is freeUDP (the name the first tests used).
func freePort(t *testing.T) string {
	t.Helper()
	return freeUDP(t)
}

// freePortTCP returns a loopback TCP address nothing listens on, which
// no other test of the run is given and no bind to port 0 or outgoing
// connection is handed.
func freePortTCP(t *testing.T) string {
	t.Helper()
	return pickPort(t, "tcp")
}

// pickPort returns 127.0.0.1:port of a port below the ephemeral range
// that network can bind now and that no test was given before.
func pickPort(t *testing.T, network string) string {
	t.Helper()
	ceiling, err := ephemeralFloor()
	if err != nil {
		t.Fatal(err)
	}
	if ceiling-pickFloor < 1000 {
		t.Fatalf("the ephemeral ports start at %d: too few ports below them and above %d to pick from", ceiling, pickFloor)
	}
	picked.Lock()
	defer picked.Unlock()
	for range 1000 {
		port := pickFloor + rand.IntN(ceiling-pickFloor)
		if picked.ports[port] {
			continue
		}
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		if err := bindFree(network, addr); err != nil {
			continue // a service or another process holds it
		}
		picked.ports[port] = true
		return addr
	}
	t.Fatalf("no free %s port between %d and %d in 1000 tries", network, pickFloor, ceiling)
	return ""
}

// bindFree binds addr on network and lets it go: nil when it was free.
func bindFree(network, addr string) error {
	if network == "udp" {
		c, err := net.ListenPacket(network, addr)
		if err != nil {
			return err
		}
		return c.Close()
	}
	l, err := net.Listen(network, addr)
	if err != nil {
		return err
	}
	return l.Close()
}

// ephemeralFloor returns the first port of the kernel's ephemeral range.
func ephemeralFloor() (int, error) {
	const path = "/proc/sys/net/ipv4/ip_local_port_range"
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("the ephemeral port range: %w", err)
	}
	fields := strings.Fields(string(b))
	if len(fields) != 2 {
		return 0, fmt.Errorf("the ephemeral port range: %s holds %q, want two ports", path, b)
	}
	return strconv.Atoi(fields[0])
}

// loopbackUDP is a UDP socket on a free port of 127.0.0.1, closed when
// the test ends: a port in use, or a fake daemon's.
func loopbackUDP(t *testing.T) *net.UDPConn {
	t.Helper()
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
