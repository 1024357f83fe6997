package daemon

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strings"
	"syscall"

	"github.com/gloved/gloved/mdns"
)

// listenAddr is one address a config listens on: its key, the network
// ("udp" or "tcp") and the address as the config gives it.
type listenAddr struct {
	key, network, addr string
}

// listenAddrs returns the addresses c listens on: OSC's socket, and the
// live page, metrics and OSCQuery where they are on. An optional page (the
// demo's, which runs without it when its port is taken) is not one.
func (c *Config) listenAddrs() []listenAddr {
	ls := []listenAddr{{"osc.listen", "udp", c.OSC.Listen}}
	if c.View.Listen != "" && !c.View.optional {
		ls = append(ls, listenAddr{"view.listen", "tcp", c.View.Listen})
	}
	if c.Metrics.Listen != "" {
		ls = append(ls, listenAddr{"metrics.listen", "tcp", c.Metrics.Listen})
	}
	if c.OSCQuery.on() {
		ls = append(ls, listenAddr{"oscquery.listen", "tcp", c.OSCQuery.Listen})
	}
	return ls
}

// try binds a and releases it at once: nil if a daemon could listen there
// now, else the system's error. A port of 0 (any free port) always can.
func (a listenAddr) try() error {
	if _, port, err := net.SplitHostPort(a.addr); err == nil && port == "0" {
		return nil
	}
	var err error
	if a.network == "udp" {
		var c net.PacketConn
		if c, err = net.ListenPacket("udp", a.addr); err == nil {
			c.Close()
		}
	} else {
		var l net.Listener
		if l, err = net.Listen("tcp", a.addr); err == nil {
			l.Close()
		}
	}
	return err
}

// explain is the line for try's error err.
func (a listenAddr) explain(err error) error {
	if _, ok := resolveListen(a); !ok {
		return fmt.Errorf("%s = %q: %v: want host:port with a port 0-65535, such as 127.0.0.1:9431", a.key, a.addr, unwrapOp(err))
	}
	if errors.Is(err, syscall.EADDRINUSE) {
		return fmt.Errorf("%s = %q: the port is in use: choose a free port for %s, or stop what holds it", a.key, a.addr, a.key)
	}
	if errors.Is(err, syscall.EACCES) {
		return fmt.Errorf("%s = %q: not allowed to listen there (%v): ports below 1024 need root or CAP_NET_BIND_SERVICE: choose a port above 1023", a.key, a.addr, unwrapOp(err))
	}
	return fmt.Errorf("%s = %q: cannot listen there (%v): give an address of this machine", a.key, a.addr, unwrapOp(err))
}

// unwrapOp returns the system's error under a net.OpError ("cannot assign
// requested address"), or err.
func unwrapOp(err error) error {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err
	}
	return err
}

// canListen tries each address next listens on that the running daemon
// d does not hold (by any key), before d stops for a reload: a reload
// whose page, metrics, OSCQuery or OSC port is taken or not this
// machine's is refused while d goes on, instead of stopping d and
// starting it again. (What d holds it hands on, or frees as it stops.)
func (d *Daemon) canListen(next *Config) error {
	held := d.config.listenAddrs()
	for _, a := range next.listenAddrs() {
		if slices.ContainsFunc(held, a.sameSocket) {
			continue
		}
		if err := a.try(); err != nil {
			return a.explain(err)
		}
	}
	return nil
}

// sameSocket reports whether a and b bind one socket however they are
// spelt ("localhost:9431" and "127.0.0.1:9431"), or one whose binding
// holds the other's port (":9100" and "127.0.0.1:9100"): the same
// network and port, and the same address or either every address. Two
// that do not resolve are the same only as written.
func (a listenAddr) sameSocket(b listenAddr) bool {
	if a.network != b.network {
		return false
	}
	x, xok := resolveListen(a)
	y, yok := resolveListen(b)
	if !xok || !yok {
		return a.addr == b.addr
	}
	if x.Port() != y.Port() || x.Port() == 0 { // 0: each its own free port
		return false
	}
	return x.Addr() == y.Addr() || !x.Addr().IsValid() || !y.Addr().IsValid() || x.Addr().IsUnspecified() || y.Addr().IsUnspecified()
}

// resolveListen resolves a's address (no address: every one, invalid).
func resolveListen(a listenAddr) (netip.AddrPort, bool) {
	if a.network == "udp" {
		u, err := net.ResolveUDPAddr("udp", a.addr)
		if err != nil {
			return netip.AddrPort{}, false
		}
		return netip.AddrPortFrom(u.AddrPort().Addr().Unmap(), u.AddrPort().Port()), true
	}
	t, err := net.ResolveTCPAddr("tcp", a.addr)
	if err != nil {
		return netip.AddrPort{}, false
	}
	return netip.AddrPortFrom(t.AddrPort().Addr().Unmap(), t.AddrPort().Port()), true
}

// canStart tries each address c listens on before the daemon starts: one
// it may not listen on (not this machine's, a port it lacks the right to)
// is a configuration error, as --check says; a port in use is left to the
// start, which says so (exit 1: another program's, not the config's).
func (c *Config) canStart() error {
	_, err := c.ListenNotes()
	return err
}

// ListenNotes tries every address c listens on, for `gloved run --check`:
// an address that is not this machine's is an error (the daemon cannot
// start); a port in use is a note, since the gloved that runs this config
// holds its own ports while the config is checked for a reload, and so is
// an OSCQuery interface that is missing or cannot carry mDNS (the daemon
// runs, unadvertised, as it warns).
func (c *Config) ListenNotes() (notes []string, err error) {
	for _, a := range c.listenAddrs() {
		switch e := a.try(); {
		case e == nil:
		case errors.Is(e, syscall.EADDRINUSE):
			notes = append(notes, fmt.Sprintf("%s = %q is in use now: a gloved running this config keeps it through a reload; anything else must free it before gloved starts", a.key, a.addr))
		default:
			return notes, a.explain(e)
		}
	}
	if c.OSCQuery.on() && len(c.OSCQuery.Interfaces) > 0 {
		if _, err := mdns.Interfaces(c.OSCQuery.Interfaces); err != nil {
			notes = append(notes, fmt.Sprintf("oscquery.interfaces: %s: gloved runs, but is not advertised over mDNS until it is there (ip link lists the interfaces)", strings.TrimPrefix(err.Error(), "mdns: ")))
		}
	}
	return notes, nil
}
