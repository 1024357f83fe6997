package osc

import (
	"fmt"
	"strings"
)

// Bounds on the addresses gloved builds from its configuration
// (osc.prefix, a profile's parameter names). OSC 1.0 sets no length, but
// an address must fit a UDP datagram with its arguments, and receivers
// read into fixed buffers (VRChat, TouchOSC and go-osc's bundle reader
// take a few kilobytes): MaxAddress is the longest address sent, and
// MaxAddressPart, at most a quarter of it, the longest configured part
// (a prefix, a parameter name), so that a part and what gloved adds
// around it (/avatar/parameters/, a hand's name, a method's suffix) fit.
const (
	MaxAddress     = 1024
	MaxAddressPart = 256
)

// AddressChars reports why s cannot be in an OSC address, or "" when it
// can: OSC 1.0 takes printable ASCII (0x21-0x7E) in an address's parts,
// except # * , ? [ ] { } (pattern characters) and space; '/' separates
// them. A control character (NUL ends the address on the wire, a
// newline breaks every log of it) or a non-ASCII byte is not one.
func AddressChars(s string) string {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x21 || c > 0x7e:
			return fmt.Sprintf("byte %d (0x%02x) is not printable ASCII", i, c)
		case strings.IndexByte("#*,?[]{}", c) >= 0:
			return fmt.Sprintf("byte %d (%c) is a pattern character", i, c)
		}
	}
	return ""
}

// CheckPrefix reports what is wrong with p as gloved's address prefix
// (osc.prefix), or nil: "/" and parts of AddressChars, none empty, at
// most MaxAddressPart bytes.
func CheckPrefix(p string) error {
	if !strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") || strings.Contains(p, "//") {
		return fmt.Errorf("want an OSC address like /gloved: a / before each part, none empty, no / at the end")
	}
	if why := AddressChars(p); why != "" {
		return fmt.Errorf("%s: want printable ASCII without space or #*,?[]{}, like /gloved", why)
	}
	if len(p) > MaxAddressPart {
		return fmt.Errorf("%d bytes: want at most %d (every address gloved sends starts with it, and must fit a datagram and the receivers' buffers)", len(p), MaxAddressPart)
	}
	return nil
}
