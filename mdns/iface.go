package mdns

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"slices"
)

// Interface is a network interface multicast DNS runs on: its index and
// name, and its IPv4 networks (this package speaks mDNS over IPv4 only).
type Interface struct {
	Index    int
	Name     string
	Loopback bool
	// Prefixes are the interface's IPv4 addresses with their networks;
	// the first is the one a service listening on 0.0.0.0 is advertised
	// at.
	Prefixes []netip.Prefix
}

// ErrNoInterface is the error of Interfaces when none can carry mDNS.
var ErrNoInterface = errors.New("no network interface that is up, multicast-capable and has an IPv4 address")

// Interfaces returns the interfaces that can carry mDNS: up, flagged
// multicast-capable, with an IPv4 address; with names, only those, and an
// error naming one that is missing or cannot. Linux's loopback carries
// multicast only once flagged (ip link set lo multicast on), as every
// mDNS stack reads the flag.
func Interfaces(names []string) ([]Interface, error) {
	all, err := net.Interfaces()
	if err != nil {
		return nil, fmt.Errorf("mdns: interfaces: %w", err)
	}
	var out []Interface
	for _, ni := range all {
		if len(names) > 0 && !slices.Contains(names, ni.Name) {
			continue
		}
		i, why := usable(ni)
		if why != "" {
			if len(names) > 0 {
				return nil, fmt.Errorf("mdns: interface %s %s", ni.Name, why)
			}
			continue
		}
		out = append(out, i)
	}
	for _, n := range names {
		if !slices.ContainsFunc(out, func(i Interface) bool { return i.Name == n }) {
			return nil, fmt.Errorf("mdns: no network interface %s", n)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("mdns: %w", ErrNoInterface)
	}
	return out, nil
}

// usable returns ni as an Interface, or why it cannot carry mDNS.
func usable(ni net.Interface) (Interface, string) {
	i := Interface{Index: ni.Index, Name: ni.Name, Loopback: ni.Flags&net.FlagLoopback != 0}
	switch {
	case ni.Flags&net.FlagUp == 0:
		return i, "is down"
	case ni.Flags&net.FlagMulticast == 0:
		if i.Loopback {
			return i, "is not multicast-capable (ip link set " + ni.Name + " multicast on)"
		}
		return i, "is not multicast-capable"
	}
	addrs, err := ni.Addrs()
	if err != nil {
		return i, "has no readable addresses: " + err.Error()
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			ip, ok := netip.AddrFromSlice(n.IP)
			ones, _ := n.Mask.Size()
			if ok && ip.Unmap().Is4() {
				i.Prefixes = append(i.Prefixes, netip.PrefixFrom(ip.Unmap(), ones-96*boolInt(len(n.Mask) == 16)))
			}
		}
	}
	if len(i.Prefixes) == 0 {
		return i, "has no IPv4 address"
	}
	return i, ""
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// AddrFor returns the address a service listening on listen is reached
// at through i, and whether it is reached through i at all: listen
// itself where it is one of i's addresses (or, on a loopback interface,
// any loopback address), i's first address where listen is unspecified.
// Exactly one address: VRChat takes each address of a service as a
// service of its own.
func (i Interface) AddrFor(listen netip.Addr) (netip.Addr, bool) {
	listen = listen.Unmap()
	switch {
	case !listen.IsValid():
		return netip.Addr{}, false
	case listen.IsUnspecified():
		return i.Prefixes[0].Addr(), true
	case listen.IsLoopback():
		return listen, i.Loopback && listen.Is4()
	}
	for _, p := range i.Prefixes {
		if p.Addr() == listen {
			return listen, true
		}
	}
	return netip.Addr{}, false
}

// Holds reports whether a is one of i's addresses (or loopback, on a
// loopback interface).
func (i Interface) Holds(a netip.Addr) bool {
	a = a.Unmap()
	if a.IsLoopback() {
		return i.Loopback
	}
	for _, p := range i.Prefixes {
		if p.Addr() == a {
			return true
		}
	}
	return false
}
