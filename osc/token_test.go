package osc

import (
	"net/netip"
	"strings"
	"testing"
	"time"
)

// TestTokensAreBoundToTheirDestination: a token is good for the address
// and port it was issued for (an IPv4-mapped form of the address is the
// same address), under the keys of the hub that issued it, and for
// nothing else; what is not a token is none, and a token has one
// spelling.
func TestTokensAreBoundToTheirDestination(t *testing.T) {
	var k, other tokenKeys
	dst := ap("192.0.2.7:9430")
	tok := k.issue(dst, 0)
	if len(tok) != 11 || strings.ContainsAny(tok, "+/=") {
		t.Fatalf("token %q: want 11 characters of base64url", tok)
	}
	if valid, fresh := k.check(dst, tok, 0); !valid || !fresh {
		t.Fatalf("the token of %v for it: valid %v, fresh %v", dst, valid, fresh)
	}
	if valid, _ := k.check(ap("[::ffff:192.0.2.7]:9430"), tok, 0); !valid {
		t.Errorf("the IPv4-mapped address is refused its token")
	}
	other.issue(dst, 0)
	// The same 64 bits spelt otherwise: the last character's two spare
	// bits set.
	var respelt []string
	last := strings.IndexByte(alphabet, tok[10])
	for spare := 1; spare < 4; spare++ {
		respelt = append(respelt, tok[:10]+string(alphabet[last&^3|spare]))
	}
	respelt = append(respelt, tok[:5]+"\n"+tok[5:], tok+"\r")
	for _, r := range respelt {
		if valid, _ := k.check(dst, r, 0); valid {
			t.Errorf("the token %q respelt %q is taken", tok, r)
		}
	}
	for _, tc := range []struct {
		what string
		keys *tokenKeys
		dst  netip.AddrPort
		tok  string
	}{
		{"another port", &k, ap("192.0.2.7:9431"), tok},
		{"another address", &k, ap("192.0.2.8:9430"), tok},
		{"another hub", &other, dst, tok},
		{"no token", &k, dst, ""},
		{"not base64url", &k, dst, "!!!!!!!!!!!"},
		{"too long", &k, dst, tok + "AAAA"},
		{"a 60 kB string", &k, dst, strings.Repeat("A", 60000)},
	} {
		if valid, _ := tc.keys.check(tc.dst, tc.tok, 0); valid {
			t.Errorf("%s: taken", tc.what)
		}
	}
}

// TestTokensLastOneToTwoRotations: a token is fresh under the key it was
// issued with, stale (still good) once that key is the previous one, and
// refused after a second rotation, however far the clock jumps.
func TestTokensLastOneToTwoRotations(t *testing.T) {
	var k tokenKeys
	dst := ap("192.0.2.7:9430")
	k.issue(dst, 0) // the first key
	tok := k.issue(dst, TokenRotation/2)
	for _, tc := range []struct {
		at           time.Duration
		valid, fresh bool
	}{
		{TokenRotation - time.Nanosecond, true, true},
		{TokenRotation, true, false},
		{2*TokenRotation - time.Nanosecond, true, false},
		{2 * TokenRotation, false, false},
	} {
		if valid, fresh := k.check(dst, tok, tc.at); valid != tc.valid || fresh != tc.fresh {
			t.Errorf("at %v: valid %v, fresh %v; want %v, %v", tc.at, valid, fresh, tc.valid, tc.fresh)
		}
	}
	tok = k.issue(dst, 2*TokenRotation)
	if valid, _ := k.check(dst, tok, 100*TokenRotation); valid {
		t.Errorf("a token 98 rotations old was taken")
	}
}

// alphabet is base64url's, in order of value.
const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
