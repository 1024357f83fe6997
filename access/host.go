package access

import (
	"net"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// where is how a request reached a server: the address the server
// listens on and the one the request arrived on (either invalid when
// unknown: a handler served by a test).
type where struct {
	listen, arrived netip.AddrPort
}

// port is the server's port, 0 if unknown.
func (w where) port() uint16 {
	if w.listen.IsValid() && w.listen.Port() != 0 {
		return w.listen.Port()
	}
	return w.arrived.Port()
}

// loopbackOK reports whether loopback addresses reach the server: it
// listens on loopback or on every address (or it is not known where).
func (w where) loopbackOK() bool {
	a := w.listen.Addr().Unmap()
	return !w.listen.IsValid() || a.IsLoopback() || a.IsUnspecified()
}

// names reports whether host, a Host header or an Origin's host ("name",
// "name:port", "1.2.3.4:port", "[::1]:port"; any case, a trailing dot
// or not), names this server: one of its addresses, localhost, this
// machine's names or one of extra (its mDNS host name), and, when a port
// is given, the server's port. A name that only resolves to one of its
// addresses does not: that is DNS rebinding.
func (w where) names(host string, extra []string) bool {
	name, port := splitHost(host)
	if port != "" && port != strconv.Itoa(int(w.port())) && w.port() != 0 {
		return false
	}
	if ip, err := netip.ParseAddr(name); err == nil {
		return w.isAddress(ip.Unmap())
	}
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		// Browsers resolve localhost themselves, to loopback, never
		// through DNS (RFC 6761 section 6.3).
		return w.loopbackOK()
	}
	for _, n := range append(machineNames(), extra...) {
		if strings.EqualFold(name, strings.TrimSuffix(n, ".")) {
			return true
		}
	}
	return false
}

// isAddress reports whether ip is one of the server's addresses: the one
// it listens on or the one the request arrived on, loopback when that
// reaches it, and any of the machine's when it listens on every one.
func (w where) isAddress(ip netip.Addr) bool {
	switch {
	case ip == w.listen.Addr().Unmap(), ip == w.arrived.Addr().Unmap():
		return true
	case ip.IsLoopback():
		return w.loopbackOK()
	case w.listen.Addr().IsUnspecified():
		return interfaceAddrs.has(ip, time.Now())
	}
	return false
}

// splitHost parts a Host header into the name, lower case without
// brackets or a trailing dot, and the port ("" when there is none).
func splitHost(host string) (name, port string) {
	name = host
	if h, p, err := net.SplitHostPort(host); err == nil {
		name, port = h, p
	}
	name = strings.TrimSuffix(strings.ToLower(strings.Trim(name, "[]")), ".")
	return name, port
}

// machineNames are this machine's host name as the kernel has it, its
// first label, and that label under .local (where mDNS answers for it).
var machineNames = sync.OnceValue(func() []string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		return nil
	}
	short, _, _ := strings.Cut(host, ".")
	return []string{host, short, short + ".local"}
})

// addrCache is the machine's interface addresses, read again when a
// lookup misses and they are older than a second: a request naming an
// address of another machine cannot make each request list them.
type addrCache struct {
	mu    sync.Mutex
	at    time.Time
	addrs []netip.Addr
}

var interfaceAddrs addrCache

// has reports whether ip is an address of one of the machine's
// interfaces.
func (c *addrCache) has(ip netip.Addr, now time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for range 2 {
		for _, a := range c.addrs {
			if a == ip {
				return true
			}
		}
		if now.Sub(c.at) < time.Second {
			return false
		}
		c.at, c.addrs = now, listInterfaceAddrs()
	}
	return false
}

func listInterfaceAddrs() []netip.Addr {
	as, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var out []netip.Addr
	for _, a := range as {
		if p, err := netip.ParsePrefix(a.String()); err == nil {
			out = append(out, p.Addr().Unmap().WithZone(""))
		}
	}
	return out
}
