package osc

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"net/netip"
	"sync"
	"time"
)

// Address validation, as QUIC does it (RFC 9000, section 8.1): frames go
// to a destination that is not loopback only once it has shown that it
// receives what is sent there, by sending back the token the hub sent it
// (<prefix>/validate). A token is an HMAC of the destination's address
// and port under a secret key that changes every TokenRotation; the
// previous key is kept, so a token is good for one to two rotations.
const (
	TokenRotation = 2 * time.Minute
	tokenBytes    = 8 // HMAC-SHA256 cut to 64 bits: 11 characters of base64url
)

// tokenText writes tokens: base64url without padding, which OSC strings
// and shells carry as they are. Strict: 11 characters hold 66 bits, and
// the last character's two spare bits must be zero, so that a token has
// one spelling, not four.
var tokenText = base64.RawURLEncoding.Strict()

// tokenKeys are the hub's token keys: the current one and the one before.
type tokenKeys struct {
	mu       sync.Mutex
	started  bool
	epoch    uint64        // the current key's number; the previous key's is epoch-1
	since    time.Duration // when the current key took over, on the hub's clock
	current  [32]byte
	previous [32]byte
}

// issue returns dst's token under the current key.
func (k *tokenKeys) issue(dst netip.AddrPort, now time.Duration) string {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.rotate(now)
	return tokenText.EncodeToString(k.mac(&k.current, k.epoch, dst))
}

// check reports whether tok is dst's token: valid under either key, and
// fresh when under the current one (a holder of a stale one is sent a
// new one).
func (k *tokenKeys) check(dst netip.AddrPort, tok string, now time.Duration) (valid, fresh bool) {
	if len(tok) != tokenText.EncodedLen(tokenBytes) {
		return false, false // nor a token with a line break in it, which the decoder skips
	}
	b, err := tokenText.DecodeString(tok)
	if err != nil || len(b) != tokenBytes {
		return false, false
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.rotate(now)
	if hmac.Equal(b, k.mac(&k.current, k.epoch, dst)) {
		return true, true
	}
	return k.epoch > 0 && hmac.Equal(b, k.mac(&k.previous, k.epoch-1, dst)), false
}

// rotate draws the first key, or replaces the keys whose time is up:
// after one rotation the current key becomes the previous one; after
// more, neither is kept. k.mu is held.
func (k *tokenKeys) rotate(now time.Duration) {
	if !k.started {
		rand.Read(k.current[:])
		k.started, k.since = true, now
		return
	}
	n := (now - k.since) / TokenRotation
	if n <= 0 {
		return
	}
	if n == 1 {
		k.previous = k.current
	} else {
		rand.Read(k.previous[:]) // no token was issued under it
	}
	rand.Read(k.current[:])
	k.epoch += uint64(n)
	k.since += n * TokenRotation
}

// mac is the token of dst under key: an HMAC-SHA256 of its address (in
// its 16-byte form, so that an IPv4-mapped address is the same), port
// and the key's epoch, cut to tokenBytes.
func (k *tokenKeys) mac(key *[32]byte, epoch uint64, dst netip.AddrPort) []byte {
	m := hmac.New(sha256.New, key[:])
	a := dst.Addr().Unmap().WithZone("").As16()
	var b [16 + 2 + 8]byte
	copy(b[:], a[:])
	binary.BigEndian.PutUint16(b[16:], dst.Port())
	binary.BigEndian.PutUint64(b[18:], epoch)
	m.Write(b[:])
	return m.Sum(nil)[:tokenBytes]
}
