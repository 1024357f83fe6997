package access

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"testing"
)

// TestRefuse: loopback and osc.allow's hosts are served, others refused;
// a request must name the server by one of its addresses (with its port,
// if any), as localhost where loopback reaches it, or by the machine's
// names or the server's own; a page of another origin may not upgrade to
// a WebSocket nor send a POST, while a GET, or a client that names no
// origin, may.
func TestRefuse(t *testing.T) {
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	short, _, _ := strings.Cut(host, ".")
	rules := Rules{Allow: []netip.Prefix{netip.MustParsePrefix("192.0.2.0/28")}, Names: []string{"gloved-labpc-oscjson.local."}}
	loopback := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9432}
	loopback6 := &net.TCPAddr{IP: net.IPv6loopback, Port: 9432}
	wildcard := &net.TCPAddr{IP: net.IPv4zero, Port: 9432}
	lan := &net.TCPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 9432}
	tests := []struct {
		name         string
		remote, host string
		listen       net.Addr
		arrived      net.Addr // the request's local address; nil: none recorded
		origin       string
		method       string // "" GET; "WS" a WebSocket upgrade
		refused      bool
	}{
		{"loopback by address", "127.0.0.1:5000", "127.0.0.1:9432", loopback, nil, "", "", false},
		{"by address, no port", "127.0.0.1:5000", "127.0.0.1", loopback, nil, "", "", false},
		{"another port", "127.0.0.1:5000", "127.0.0.1:9433", loopback, nil, "", "", true},
		{"another loopback address", "127.0.0.1:5000", "127.0.0.2:9432", loopback, nil, "", "", false},
		{"loopback IPv6 as localhost", "[::1]:5000", "localhost:9432", loopback6, nil, "", "", false},
		{"LOCALHOST in capitals, a trailing dot", "127.0.0.1:5000", "LOCALHOST.", loopback, nil, "", "", false},
		{"a name under localhost", "127.0.0.1:5000", "app.localhost:9432", loopback, nil, "", "", false},
		{"IPv6 literal", "[::1]:5000", "[::1]:9432", loopback6, nil, "", "", false},
		{"the machine's name", "127.0.0.1:5000", host + ":9432", loopback, nil, "", "", false},
		{"the machine's name under .local", "127.0.0.1:5000", strings.ToUpper(short) + ".local:9432", loopback, nil, "", "", false},
		{"the server's own name", "127.0.0.1:5000", "gloved-labpc-oscjson.local:9432", loopback, nil, "", "", false},
		{"no Host (HTTP/1.0, no browser)", "127.0.0.1:5000", "", loopback, nil, "", "", false},
		{"allowed host", "192.0.2.5:5000", "127.0.0.1:9432", loopback, nil, "", "", false},
		{"IPv4-mapped allowed host", "[::ffff:192.0.2.5]:5000", "192.0.2.1:9432", lan, nil, "", "", false},
		{"host outside osc.allow", "192.0.2.99:5000", "127.0.0.1:9432", loopback, nil, "", "", true},
		{"unparsable source", "somewhere", "127.0.0.1:9432", loopback, nil, "", "", true},
		{"rebound name on loopback", "127.0.0.1:5000", "attacker.example:9432", loopback, nil, "", "", true},
		{"rebound name, no port", "127.0.0.1:5000", "attacker.example", loopback, nil, "", "", true},
		{"a name that resolves to loopback", "127.0.0.1:5000", "127.0.0.1.nip.io:9432", loopback, nil, "", "", true},
		{"rebound name, wildcard server, arrived on loopback", "127.0.0.1:5000", "attacker.example:9432", wildcard, loopback, "", "", true},
		{"rebound name over the LAN", "192.0.2.5:5000", "attacker.example:9432", lan, nil, "", "", true},
		{"the machine's name over the LAN", "192.0.2.5:5000", short + ".local:9432", wildcard, lan, "", "", false},
		{"the address it arrived on, wildcard server", "192.0.2.5:5000", "192.0.2.1:9432", wildcard, lan, "", "", false},
		{"an address of the LAN server", "192.0.2.5:5000", "192.0.2.1:9432", lan, nil, "", "", false},
		{"another machine's address", "192.0.2.5:5000", "192.0.2.9:9432", lan, nil, "", "", true},
		{"localhost, server on the LAN only", "192.0.2.5:5000", "localhost:9432", lan, nil, "", "", true},
		{"the stream from its own page", "127.0.0.1:5000", "127.0.0.1:9432", loopback, nil, "http://127.0.0.1:9432", "WS", false},
		{"the stream from its page as localhost", "127.0.0.1:5000", "localhost:9432", loopback, nil, "http://localhost:9432", "WS", false},
		{"the stream from a client that names no origin", "127.0.0.1:5000", "127.0.0.1:9432", loopback, nil, "", "WS", false},
		{"the stream from another site", "127.0.0.1:5000", "127.0.0.1:9432", loopback, nil, "http://attacker.example", "WS", true},
		{"the stream from another port", "127.0.0.1:5000", "127.0.0.1:9432", loopback, nil, "http://127.0.0.1:3000", "WS", true},
		{"the stream from port 80, implied", "127.0.0.1:5000", "127.0.0.1:9432", loopback, nil, "http://localhost", "WS", true},
		{"the stream over https", "127.0.0.1:5000", "127.0.0.1:9432", loopback, nil, "https://127.0.0.1:9432", "WS", true},
		{"the stream from a sandboxed page", "127.0.0.1:5000", "127.0.0.1:9432", loopback, nil, "null", "WS", true},
		{"a POST from another site", "127.0.0.1:5000", "127.0.0.1:9432", loopback, nil, "http://attacker.example", "POST", true},
		{"a POST from its own page", "127.0.0.1:5000", "127.0.0.1:9432", loopback, nil, "http://127.0.0.1:9432", "POST", false},
		{"a GET from another site (it cannot read the answer)", "127.0.0.1:5000", "127.0.0.1:9432", loopback, nil, "http://attacker.example", "", false},
	}
	for _, tc := range tests {
		method := tc.method
		if method == "" || method == "WS" {
			method = "GET"
		}
		r := httptest.NewRequest(method, "/", nil)
		r.RemoteAddr, r.Host = tc.remote, tc.host
		if tc.origin != "" {
			r.Header.Set("Origin", tc.origin)
		}
		if tc.method == "WS" {
			r.Header.Set("Upgrade", "websocket")
			r.Header.Set("Connection", "Upgrade")
		}
		if tc.arrived != nil {
			r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, tc.arrived))
		}
		why := rules.Refuse(r, tc.listen)
		if (why != "") != tc.refused {
			t.Errorf("%s: refused %q, want refused %v", tc.name, why, tc.refused)
		}
	}
}

// TestAWildcardServerAnswersToEachOfItsAddresses: a server on 0.0.0.0
// answers to every address of the machine's interfaces, whichever the
// request arrived on, and to no other.
func TestAWildcardServerAnswersToEachOfItsAddresses(t *testing.T) {
	w := where{listen: netip.MustParseAddrPort("0.0.0.0:9432"), arrived: netip.MustParseAddrPort("127.0.0.1:9432")}
	mine := listInterfaceAddrs()
	if len(mine) == 0 {
		t.Fatal("no interface addresses")
	}
	for _, a := range mine {
		if !w.names(netip.AddrPortFrom(a, 9432).String(), nil) {
			t.Errorf("%s, an address of this machine, was refused", a)
		}
	}
	if w.names("192.0.2.254:9432", nil) {
		t.Error("192.0.2.254, an address of no interface here, was taken")
	}
}

// TestListenSaysInUse: a second Listen on a port in use is ErrInUse,
// naming the address.
func TestListenSaysInUse(t *testing.T) {
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	if _, err := Listen(addr); !errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), addr) {
		t.Errorf("a second Listen on %s: %v, want ErrInUse naming the address", addr, err)
	}
	if _, err := Listen("127.0.0.1:99999"); err == nil || errors.Is(err, ErrInUse) {
		t.Errorf("a bad port: %v", err)
	}
}
