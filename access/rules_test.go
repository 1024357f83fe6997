package access

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
)

// TestRefuse: loopback and osc.allow's hosts are served, others refused;
// a request that arrived on loopback must name the server by address or
// as localhost, whatever address the server listens on; one that arrived
// on another address may use any name.
func TestRefuse(t *testing.T) {
	rules := Rules{Allow: []netip.Prefix{netip.MustParsePrefix("192.0.2.0/28")}}
	loopback := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9432}
	wildcard := &net.TCPAddr{IP: net.IPv4zero, Port: 9432}
	lan := &net.TCPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 9432}
	tests := []struct {
		name         string
		remote, host string
		listen       net.Addr
		arrived      net.Addr // the request's local address; nil: none recorded
		refused      bool
	}{
		{"loopback by address", "127.0.0.1:5000", "127.0.0.1:9432", loopback, nil, false},
		{"loopback IPv6 as localhost", "[::1]:5000", "localhost:9432", loopback, nil, false},
		{"LOCALHOST in capitals", "127.0.0.1:5000", "LOCALHOST", loopback, nil, false},
		{"IPv6 literal", "[::1]:5000", "[::1]:9432", loopback, nil, false},
		{"allowed host", "192.0.2.5:5000", "127.0.0.1:9432", loopback, nil, false},
		{"IPv4-mapped allowed host", "[::ffff:192.0.2.5]:5000", "192.0.2.1:9432", lan, nil, false},
		{"host outside osc.allow", "192.0.2.99:5000", "127.0.0.1:9432", loopback, nil, true},
		{"unparsable source", "somewhere", "127.0.0.1:9432", loopback, nil, true},
		{"rebound name on loopback", "127.0.0.1:5000", "attacker.example:9432", loopback, nil, true},
		{"rebound name, wildcard server, arrived on loopback", "127.0.0.1:5000", "attacker.example:9432", wildcard, loopback, true},
		{"a name over the LAN", "192.0.2.5:5000", "labpc.local:9432", wildcard, lan, false},
		{"a name, server on the LAN", "192.0.2.5:5000", "labpc.local:9432", lan, nil, false},
	}
	for _, tc := range tests {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr, r.Host = tc.remote, tc.host
		if tc.arrived != nil {
			r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, tc.arrived))
		}
		why := rules.Refuse(r, tc.listen)
		if (why != "") != tc.refused {
			t.Errorf("%s: refused %q, want refused %v", tc.name, why, tc.refused)
		}
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
