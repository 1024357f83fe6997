package access

import (
	"net"
	"net/http"
	"net/netip"
	"net/url"
)

// Rules are who may be served: loopback and the Allow prefixes (the
// config's osc.allow), naming the server by one of its addresses, as
// localhost or by one of the machine's names or Names.
type Rules struct {
	Allow []netip.Prefix
	// Names are names the server answers to besides the machine's own
	// (the OSCQuery tree's mDNS host name).
	Names []string
}

// Refuse says why r may not be served, or "" if it may. listen is where
// the server listens (nil: where r arrived, which net/http records in
// http.LocalAddrContextKey on every request it serves).
//
// A request from a source neither loopback nor allowed is refused; so is
// one whose Host names another host (a web page whose DNS name was
// rebound to this machine: the browser sends that name); and so is a
// WebSocket upgrade or a request other than GET, HEAD and OPTIONS sent
// by a page of another origin (a browser says which in Origin; a client
// that sends none, such as curl, is no web page).
func (ru Rules) Refuse(r *http.Request, listen net.Addr) string {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return "unknown source address"
	}
	if !ru.Source(ap.Addr()) {
		return "the source is neither loopback nor in osc.allow"
	}
	w := where{listen: addrPort(listen)}
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		w.arrived = addrPort(a)
	}
	if r.Host != "" && !w.names(r.Host, ru.Names) {
		return "Host names another server: use this one's address, localhost or the machine's name"
	}
	if origin := r.Header.Get("Origin"); origin != "" && changes(r) && !w.isOrigin(origin, ru.Names) {
		return "a page of another origin may not open the stream or send requests"
	}
	return ""
}

// Source reports whether a source at a may be served: loopback, or in
// one of the Allow prefixes.
func (ru Rules) Source(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsLoopback() || ru.Allowed(a)
}

// Allowed reports whether a is in one of the Allow prefixes.
func (ru Rules) Allowed(a netip.Addr) bool {
	a = a.Unmap().WithZone("")
	for _, p := range ru.Allow {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// changes reports whether r is what a page of another origin must not
// send: a WebSocket upgrade (a stream, and what the page answers on it),
// or any method but GET, HEAD and OPTIONS.
func changes(r *http.Request) bool {
	switch {
	case r.Header.Get("Upgrade") != "":
		return true
	case r.Method == http.MethodGet, r.Method == http.MethodHead, r.Method == http.MethodOptions:
		return false
	}
	return true
}

// isOrigin reports whether origin (scheme://host[:port], RFC 6454) is
// the server's own: http, and a host and port it answers to.
func (w where) isOrigin(origin string, extra []string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Scheme != "http" || u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") {
		return false
	}
	host := u.Host
	if u.Port() == "" {
		host = net.JoinHostPort(u.Hostname(), "80")
	}
	return w.names(host, extra)
}

// addrPort is a TCP address as a netip.AddrPort without zone (invalid
// for nil or another kind of address).
func addrPort(a net.Addr) netip.AddrPort {
	t, ok := a.(*net.TCPAddr)
	if !ok {
		return netip.AddrPort{}
	}
	ap := t.AddrPort()
	return netip.AddrPortFrom(ap.Addr().Unmap().WithZone(""), ap.Port())
}
