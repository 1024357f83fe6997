package access

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Rules are who may be served: loopback and the Allow prefixes (the
// config's osc.allow).
type Rules struct {
	Allow []netip.Prefix
}

// Refuse says why r may not be served, or "" if it may. local is where the
// server listens, used when r does not carry the address it arrived on
// (http.LocalAddrContextKey, which net/http sets on every request it
// serves).
func (ru Rules) Refuse(r *http.Request, local net.Addr) string {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return "unknown source address"
	}
	if src := ap.Addr().Unmap(); !src.IsLoopback() && !ru.Allowed(src) {
		return "the source is neither loopback nor in osc.allow"
	}
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		local = a
	}
	if onLoopback(local) && !namedByAddress(r.Host) {
		return "a server on loopback is reached by address or as localhost only"
	}
	return ""
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

// onLoopback reports whether a is a loopback TCP address.
func onLoopback(a net.Addr) bool {
	t, ok := a.(*net.TCPAddr)
	return ok && t.IP.IsLoopback()
}

// namedByAddress reports whether host (a Host header, with or without a
// port) is an IP address or localhost.
func namedByAddress(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if _, err := netip.ParseAddr(host); err == nil {
		return true
	}
	return strings.EqualFold(host, "localhost")
}
