package daemon

import (
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strings"

	"github.com/gloved/gloved/mdns"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/gloved"
)

// gloved's own addresses: no two of its servers on one port, and no
// frames sent to its own OSC socket. Checked when a config is read, so
// that --check, a start and a reload refuse the same configs, on the
// addresses written as numbers (and localhost); Validate checks again
// with host names resolved.

// ownServer is one of gloved's own TCP servers: the key of its address,
// and the address.
type ownServer struct{ key, addr string }

// servers returns the TCP servers the config opens.
func (c *Config) servers() []ownServer {
	var out []ownServer
	if c.Metrics.Listen != "" {
		out = append(out, ownServer{"metrics.listen", c.Metrics.Listen})
	}
	if c.View.Listen != "" {
		out = append(out, ownServer{"view.listen", c.View.Listen})
	}
	if c.OSCQuery.on() {
		out = append(out, ownServer{"oscquery.listen", c.OSCQuery.Listen})
	}
	return out
}

// trackerSocket is the UDP socket a tracker hand of gloved's listens on
// (driver.Driver.Listens): the key of its address, and the address.
type trackerSocket struct {
	key  string
	addr netip.AddrPort
}

// trackerSockets returns the sockets the config's tracker hands listen
// on; hands on one address share its socket, each listed.
func (c *Config) trackerSockets() []trackerSocket {
	var out []trackerSocket
	for i := range c.Hands {
		if a, ok := c.Hands[i].Spec.Listens(); ok {
			out = append(out, trackerSocket{fmt.Sprintf("hand[%d].options.listen", i), a})
		}
	}
	return out
}

// trackerInputs returns the addresses the config's tracker hands listen
// on, which no subscription may send to (osc.Policy.Inputs).
func (c *Config) trackerInputs() []netip.AddrPort {
	var out []netip.AddrPort
	for _, s := range c.trackerSockets() {
		out = append(out, s.addr)
	}
	return out
}

// checkTrackerPorts refuses a tracker hand's socket on the port of the
// OSC socket, bound at listen (a host name is compared as written), or
// on mDNS's while the OSCQuery service needs it: one of gloved's sockets
// could not open, and its error would blame another app.
func (c *Config) checkTrackerPorts(listen string) error {
	socks := c.trackerSockets()
	for i, s := range socks {
		for _, o := range socks[:i] {
			// One address is one socket, shared; two addresses on one
			// port cannot both be bound.
			if o.addr != s.addr && samePort(o.addr.String(), s.addr.String()) {
				return fmt.Errorf("%s = %q and %s = %q: two tracker sockets on one port: give both hands the same address to share it, or each its own port", o.key, o.addr, s.key, s.addr)
			}
		}
		if samePort(listen, s.addr.String()) {
			return fmt.Errorf("%s = %q and osc.listen = %q: two of gloved's sockets on one port: give each its own port", s.key, s.addr, c.OSC.Listen)
		}
		if c.OSCQuery.on() && s.addr.Port() == mdns.Port {
			return fmt.Errorf("%s = %q and oscquery.enabled: the OSCQuery service's mDNS needs UDP port %d: choose another port for the tracker", s.key, s.addr, mdns.Port)
		}
	}
	return nil
}

// checkListeners refuses two of gloved's servers on one address and
// port, which would leave the second unable to start, and an OSC socket
// or a tracker hand's on mDNS's port while the OSCQuery service needs
// that port.
func (c *Config) checkListeners() error {
	s := c.servers()
	for i := range s {
		for _, o := range s[:i] {
			if samePort(o.addr, s[i].addr) {
				return fmt.Errorf("%s = %q and %s = %q: two of gloved's servers on one port: give each its own port", o.key, o.addr, s[i].key, s[i].addr)
			}
		}
	}
	if l, ok := literalAddrPort(c.OSC.Listen); ok && c.OSCQuery.on() && l.Port() == mdns.Port {
		return fmt.Errorf("osc.listen = %q and oscquery.enabled: the OSCQuery service's mDNS needs UDP port %d: choose another port for osc.listen", c.OSC.Listen, mdns.Port)
	}
	if err := c.checkTrackerPorts(c.OSC.Listen); err != nil {
		return err
	}
	if err := c.checkTargetAddresses(); err != nil {
		return err
	}
	return c.checkProfileTwice()
}

// checkProfileTwice refuses a destination that two lists send one
// profile to: osc.targets and an [[osc.profile]] named gloved, or two
// [[osc.profile]]s of one name. It would receive each frame twice (two
// streams under one set of addresses, in two coordinate systems perhaps),
// and an app counts every touch and pinch edge twice. Refused rather than
// sent once: which of two profiles' settings should win is the config's
// to say. Within one list a destination repeated is sent to once
// (osc.Targets); a host name other than localhost, or an oscquery:
// pattern, is not compared.
func (c *Config) checkProfileTwice() error {
	type entry struct {
		profile string
		to      netip.AddrPort
	}
	type where struct{ key, at string }
	first := map[entry]where{} // where each profile's destination was first listed
	lists := c.targetLists()
	for k, list := range lists {
		name := gloved.Name // osc.targets
		if k > 0 {
			name = c.OSC.Profiles[k-1].Name
		}
		for i, t := range list.targets {
			dst, ok := literalAddrPort(t)
			if !ok {
				continue
			}
			at := fmt.Sprintf("%s[%d] = %q", list.key, i, t)
			e := entry{name, dst}
			if o, seen := first[e]; !seen {
				first[e] = where{list.key, at}
			} else if o.key != list.key {
				return fmt.Errorf("%s and %s are one destination of the %s profile: it would receive every frame twice, each touch and pinch edge doubled: list it in one of them", o.at, at, name)
			}
		}
	}
	return nil
}

// checkTargetAddresses refuses a target written as an address that is gloved's
// own osc.listen or a tracker hand's socket (its frames would come back
// to it as input and go round), or that its socket cannot send to.
func (c *Config) checkTargetAddresses() error {
	listen, ok := literalAddrPort(c.OSC.Listen)
	trackers := c.trackerSockets()
	var own []netip.Addr
	if a := listen.Addr(); ok && (a.IsUnspecified() || a.IsLoopback()) || len(trackers) > 0 {
		own = osc.MachineAddrs()
	}
	for _, list := range c.targetLists() {
		for i, t := range list.targets {
			dst, lit := literalAddrPort(t)
			if !lit {
				continue
			}
			if ok {
				if err := selfTarget(list.key, i, t, listen, dst, own); err != nil {
					return err
				}
			}
			if err := trackerTarget(list.key, i, t, dst, trackers, own); err != nil {
				return err
			}
			if ok {
				if err := reachable(list.key, i, t, listen.Addr(), dst.Addr(), own); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// trackerTarget is the error for target i of the list at key, t, when it
// reaches the socket of one of gloved's tracker hands: its frames would
// come back to it as the tracker's poses, as fast as they go round.
func trackerTarget(key string, i int, t string, dst netip.AddrPort, trackers []trackerSocket, own []netip.Addr) error {
	for _, s := range trackers {
		if osc.SendsToSelf(s.addr, dst, own) {
			return fmt.Errorf("%s[%d] = %q: that is %s (%v), where gloved's own tracker hand listens: its frames would come back to it as the tracker's poses; give the port of the app that receives them", key, i, t, s.key, s.addr)
		}
	}
	return nil
}

// selfTarget is the error for target i of the list at key, t, when it
// reaches the OSC socket bound at listen.
func selfTarget(key string, i int, t string, listen, dst netip.AddrPort, own []netip.Addr) error {
	if !osc.SendsToSelf(listen, dst, own) {
		return nil
	}
	return fmt.Errorf("%s[%d] = %q: that is gloved's own osc.listen (%v): its frames would come back to it as input; give the port of the app that receives them", key, i, t, listen)
}

// reachable refuses a target that gloved's OSC socket, bound at listen,
// cannot send to: a socket bound to one address sends within that
// address's IP version alone (one on every address sends to both), and
// one bound to loopback (osc.listen's default) sends only to this
// machine, own its addresses (the kernel refuses every other send).
func reachable(key string, i int, t string, listen, dst netip.Addr, own []netip.Addr) error {
	l, d := listen.Unmap(), dst.Unmap()
	if !l.IsValid() || l.IsUnspecified() {
		return nil
	}
	if l.Is4() == d.Is4() {
		if !l.IsLoopback() || d.IsLoopback() || slices.Contains(own, d) {
			return nil
		}
		return fmt.Errorf("%s[%d] = %q: another machine, and osc.listen binds the loopback address %v, whose socket sends only to this one: listen on every address (osc.listen = \":PORT\") or on this machine's address in that network", key, i, t, l)
	}
	version := func(a netip.Addr) string {
		if a.Is4() {
			return "IPv4"
		}
		return "IPv6"
	}
	return fmt.Errorf("%s[%d] = %q: an %s address, and osc.listen binds the %s address %v alone, which cannot send to it: give an %s target, or listen on every address (osc.listen = \":PORT\")", key, i, t, version(d), version(l), l, version(l))
}

// samePort reports whether servers bound at a and b would take one
// port: the same port (not 0, any free one) on the same address, or on
// every address and one of them.
func samePort(a, b string) bool {
	x, ok1 := literalAddrPort(a)
	y, ok2 := literalAddrPort(b)
	if !ok1 || !ok2 {
		return strings.EqualFold(a, b) && !strings.HasSuffix(a, ":0")
	}
	if x.Port() == 0 || x.Port() != y.Port() {
		return false
	}
	p, q := x.Addr().Unmap(), y.Addr().Unmap()
	// Go binds 0.0.0.0 as it binds [::], to both IP versions: an
	// address of either is taken by it.
	return p == q || p.IsUnspecified() || q.IsUnspecified()
}

// literalAddrPort reads "host:port" when the host is an address, empty
// (every address) or localhost, without looking up a name; a service
// name for the port is read from the system's list.
func literalAddrPort(s string) (netip.AddrPort, bool) {
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return netip.AddrPort{}, false
	}
	p, err := net.LookupPort("tcp", port)
	if err != nil || p < 0 || p > 65535 {
		return netip.AddrPort{}, false
	}
	var a netip.Addr
	switch strings.ToLower(host) {
	case "":
		a = netip.IPv6Unspecified()
	case "localhost":
		a = netip.AddrFrom4([4]byte{127, 0, 0, 1})
	default:
		if a, err = netip.ParseAddr(host); err != nil {
			return netip.AddrPort{}, false
		}
	}
	return netip.AddrPortFrom(a.Unmap().WithZone(""), uint16(p)), true
}
