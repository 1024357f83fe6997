package osc

import (
	"errors"
	"net"
	"net/netip"
	"slices"
)

// SendsToSelf reports whether a datagram sent to dst reaches a socket
// bound at local: frames sent there would come back to gloved as input
// (its own wrist messages taken for a tracker's, every frame twice) and
// go round. That is the same port and local's address, or, for a socket
// bound to every address (0.0.0.0 as [::]: Go binds both IP versions),
// a loopback address or one of own, the machine's (MachineAddrs). A zero port, yet to be chosen, is no one's.
func SendsToSelf(local, dst netip.AddrPort, own []netip.Addr) bool {
	if local.Port() == 0 || dst.Port() != local.Port() {
		return false
	}
	l, d := local.Addr().Unmap().WithZone(""), dst.Addr().Unmap().WithZone("")
	if !l.IsUnspecified() {
		return l == d
	}
	// Go binds 0.0.0.0 as it binds [::]: one socket of both IP versions
	// (net.ListenUDP on "udp"), so either takes loopback's ::1 too.
	return d.IsLoopback() || d.IsUnspecified() || slices.Contains(own, d)
}

// MachineAddrs returns this machine's own addresses: every interface's
// unicast address and the broadcast address of its IPv4 networks.
func MachineAddrs() []netip.Addr {
	own := interfaceBroadcasts()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return own
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			if ip, ok := netip.AddrFromSlice(n.IP); ok {
				own = append(own, ip.Unmap())
			}
		}
	}
	return own
}

// errSelf is a destination that is the hub's own socket.
var errSelf = errors.New("the destination is gloved's own listen address (osc.listen): its frames would come back to it")

// errInput is a destination that is one of the policy's Inputs.
var errInput = errors.New("the destination is where one of gloved's tracker hands listens (options.listen): its frames would come back to it as the tracker's poses")
