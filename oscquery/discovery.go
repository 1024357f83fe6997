package oscquery

import (
	"net/netip"
	"sync"

	"github.com/gloved/gloved/mdns"
	"github.com/gloved/gloved/osc"
)

// Sink hears the OSCQuery apps found to send to: an instance appearing
// or moving (Found, with its OSC address) and vanishing (Lost).
// *osc.Targets is one.
type Sink interface {
	Found(instance string, ap netip.AddrPort)
	Lost(instance string)
}

// discovery passes the _osc._udp instances whose names match the
// patterns (osc.MatchInstance: "VRChat-Client-*") and that gloved's OSC socket
// can send to on to a Sink, and logs each appearing, moving and
// vanishing. An instance that points at gloved's own OSC socket or a
// tracker hand's (osc.SendsToSelf) is refused: anyone on the link can
// announce one, and gloved would send its frames to itself and take them
// back as input.
type discovery struct {
	patterns []string
	osc      netip.Addr       // where gloved's OSC socket is bound
	self     netip.AddrPort   // the OSC socket's address and port
	inputs   []netip.AddrPort // where gloved's tracker hands listen (Config.Inputs)
	own      []netip.Addr     // the machine's addresses
	sink     Sink
	log      func(msg string, kv ...any)

	mu       sync.Mutex
	reported map[string]netip.AddrPort
	unusable map[string]bool
	refused  uint64 // instances found pointing at the OSC socket itself or a tracker hand's
}

func newDiscovery(patterns []string, self netip.AddrPort, inputs []netip.AddrPort, sink Sink, log func(string, ...any)) *discovery {
	return &discovery{patterns: patterns, osc: self.Addr().Unmap(), self: self, inputs: inputs, own: osc.MachineAddrs(), sink: sink, log: log,
		reported: map[string]netip.AddrPort{}, unusable: map[string]bool{}}
}

// input returns the tracker hand's address that frames sent to a would
// reach, if any.
func (d *discovery) input(a netip.AddrPort) (netip.AddrPort, bool) {
	for _, in := range d.inputs {
		if osc.SendsToSelf(in, a, d.own) {
			return in, true
		}
	}
	return netip.AddrPort{}, false
}

// matches reports whether name matches a pattern.
func (d *discovery) matches(name string) bool {
	for _, p := range d.patterns {
		if osc.MatchInstance(p, name) {
			return true
		}
	}
	return false
}

// reachable reports whether the OSC socket can send to a: a socket on
// loopback reaches only loopback, one on an address only that family
// beyond it.
func (d *discovery) reachable(a netip.Addr) bool {
	switch {
	case !d.osc.IsValid() || d.osc.IsUnspecified():
		return true
	case d.osc.IsLoopback():
		return a.IsLoopback()
	}
	return !a.IsLoopback() && a.Is4() == d.osc.Is4()
}

// found takes an instance the browser found or saw move.
func (d *discovery) found(f mdns.Found) {
	if !d.matches(f.Instance) {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	self := osc.SendsToSelf(d.self, f.Addr, d.own)
	tracker, input := d.input(f.Addr)
	if self || input || !d.reachable(f.Addr.Addr()) {
		if !d.unusable[f.Instance] {
			d.unusable[f.Instance] = true
			switch {
			case self:
				d.refused++
				d.logf("oscquery: refused an app that is gloved's own osc.listen: its frames would come back to gloved as input (another process announces gloved's port under that name)",
					"instance", f.Instance, "address", f.Addr.String(), "osc_listen", d.self.String())
			case input:
				d.refused++
				d.logf("oscquery: refused an app that is where one of gloved's tracker hands listens (options.listen): its frames would come back to gloved as the tracker's poses (another process announces that port under that name)",
					"instance", f.Instance, "address", f.Addr.String(), "tracker_listen", tracker.String())
			default:
				d.logf("oscquery: found an app gloved's OSC socket cannot send to; set osc.listen to an address on its network (0.0.0.0 for any)",
					"instance", f.Instance, "address", f.Addr.String(), "osc_listen", d.osc.String())
			}
		}
		if _, was := d.reported[f.Instance]; was {
			delete(d.reported, f.Instance)
			d.sink.Lost(f.Instance)
		}
		return
	}
	old, was := d.reported[f.Instance]
	if was && old == f.Addr {
		return
	}
	d.reported[f.Instance] = f.Addr
	delete(d.unusable, f.Instance)
	what := "oscquery: found an app to send to"
	if was {
		what = "oscquery: an app moved"
	}
	d.logf(what, "instance", f.Instance, "address", f.Addr.String(), "interface", f.Interface)
	d.sink.Found(f.Instance, f.Addr)
}

// lost takes an instance the browser lost.
func (d *discovery) lost(f mdns.Found) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.unusable, f.Instance)
	if _, was := d.reported[f.Instance]; !was {
		return
	}
	delete(d.reported, f.Instance)
	d.logf("oscquery: an app went away", "instance", f.Instance, "address", f.Addr.String())
	d.sink.Lost(f.Instance)
}

// selfRefused counts the instances refused for pointing at gloved's own
// OSC socket or a tracker hand's.
func (d *discovery) selfRefused() uint64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.refused
}

// count returns how many apps are being sent to.
func (d *discovery) count() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.reported)
}

func (d *discovery) logf(msg string, kv ...any) {
	if d.log != nil {
		d.log(msg, kv...)
	}
}
