package daemon

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strings"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/session"
)

// Validate checks what can be checked of a parsed config without opening a
// glove or a socket: the scene loads, every hand's files (session.Check:
// calibrations, a replay's recording, where a session is recorded), and
// the OSC and metrics addresses resolve to usable ports. `gloved run
// --check` runs it, and a reload runs it before it touches the running
// daemon. It returns the scene it loaded. Loading the scene is given up
// once ctx ends (Interrupted says so).
func (c *Config) Validate(ctx context.Context) (*env.Mesh, error) {
	scene, err := LoadScene(ctx, c)
	if err != nil {
		return nil, err
	}
	for _, w := range scene.Warnings {
		c.Warnings = append(c.Warnings, "scene: "+w)
	}
	for i, h := range c.Hands {
		if err := session.Check(c.Spec(i)); err != nil {
			return nil, fmt.Errorf("hand[%d] (%s).%w", i, h.Name, c.explainMissing(err))
		}
	}
	if err := c.checkAddresses(); err != nil {
		return nil, err
	}
	return scene, nil
}

// checkAddresses resolves the OSC listen address and targets and the
// metrics address.
func (c *Config) checkAddresses() error {
	la, err := net.ResolveUDPAddr("udp", c.OSC.Listen)
	if err != nil {
		return fmt.Errorf("osc.listen = %q: %v", c.OSC.Listen, err)
	}
	self := selfCheck{listen: la.AddrPort(), own: osc.MachineAddrs(), trackers: c.trackerSockets()}
	if !self.listen.Addr().IsValid() { // ":9431": every address
		self.listen = netip.AddrPortFrom(netip.IPv6Unspecified(), self.listen.Port())
	}
	if err := c.checkTrackerPorts(self.listen.String()); err != nil {
		return err
	}
	for _, list := range c.targetLists() {
		if err := self.resolveTargets(list.key, list.targets); err != nil {
			return err
		}
	}
	if a := c.Metrics.Listen; a != "" {
		if _, err := net.ResolveTCPAddr("tcp", a); err != nil {
			return fmt.Errorf("metrics.listen = %q: %v", a, err)
		}
	}
	if a := c.View.Listen; a != "" {
		if _, err := net.ResolveTCPAddr("tcp", a); err != nil {
			return fmt.Errorf("view.listen = %q: %v", a, err)
		}
	}
	if c.OSCQuery.on() {
		if _, err := net.ResolveTCPAddr("tcp", c.OSCQuery.Listen); err != nil {
			return fmt.Errorf("oscquery.listen = %q: %v", c.OSCQuery.Listen, err)
		}
		if _, err := c.Tree(); err != nil {
			return fmt.Errorf("oscquery: %v", err)
		}
	}
	return nil
}

// selfCheck is gloved's own OSC socket's address, resolved, its tracker
// hands' sockets, and the machine's addresses (osc.SendsToSelf).
type selfCheck struct {
	listen   netip.AddrPort
	trackers []trackerSocket
	own      []netip.Addr
}

// resolveTargets resolves the host names of a targets list at key, and
// refuses one that is gloved's own OSC socket or a tracker hand's.
func (s selfCheck) resolveTargets(key string, targets []string) error {
	for i, t := range targets {
		if strings.HasPrefix(t, osc.OSCQueryTarget) {
			continue
		}
		ua, err := net.ResolveUDPAddr("udp", t)
		if err != nil {
			return fmt.Errorf("%s[%d] = %q: %v", key, i, t, err)
		}
		if ua.Port == 0 {
			return fmt.Errorf("%s[%d] = %q: a target needs a port", key, i, t)
		}
		if err := selfTarget(key, i, t, s.listen, ua.AddrPort(), s.own); err != nil {
			return err
		}
		if err := trackerTarget(key, i, t, ua.AddrPort(), s.trackers, s.own); err != nil {
			return err
		}
		if err := reachable(key, i, t, s.listen.Addr(), ua.AddrPort().Addr(), s.own); err != nil {
			return err
		}
	}
	return nil
}
