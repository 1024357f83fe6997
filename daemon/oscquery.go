package daemon

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/oscquery"
)

// OSCQueryConfig is the OSCQuery service ([oscquery]): the tree of what
// gloved sends and accepts served over HTTP, advertised over mDNS, and
// the discovery of the apps osc.targets names as "oscquery:GLOB".
type OSCQueryConfig struct {
	// Enabled turns it on (the default) or off.
	Enabled *bool `toml:"enabled"`
	// Name is the advertised instance name; it starts with "gloved".
	Name string `toml:"name"`
	// Listen is the HTTP server's address; port 0 picks a free one (the
	// advertisement carries it).
	Listen string `toml:"listen"`
	// Interfaces limits mDNS to these network interfaces (default: every
	// one that is up and carries multicast).
	Interfaces []string `toml:"interfaces"`
}

// DefaultOSCQueryListen is oscquery.listen unless a config says
// otherwise: loopback, any free port.
const DefaultOSCQueryListen = "127.0.0.1:0"

// maxNameLen bounds oscquery.name: a DNS label is 63 bytes, and a rename
// adds " (NN)".
const maxNameLen = 58

func (o *OSCQueryConfig) defaults() {
	if o.Enabled == nil {
		on := true
		o.Enabled = &on
	}
	if o.Name == "" {
		o.Name = defaultName()
	}
	if o.Listen == "" {
		o.Listen = DefaultOSCQueryListen
	}
}

// on reports whether the service runs.
func (o *OSCQueryConfig) on() bool { return o.Enabled == nil || *o.Enabled }

// defaultName is "gloved-" and the machine's host name.
func defaultName() string {
	host, err := os.Hostname()
	host, _, _ = strings.Cut(host, ".")
	if err != nil || host == "" {
		return "gloved"
	}
	return truncate("gloved-"+host, maxNameLen)
}

// truncate cuts s to at most n bytes, on a rune boundary.
func truncate(s string, n int) string {
	for len(s) > n {
		_, size := lastRune(s)
		s = s[:len(s)-size]
	}
	return s
}

func lastRune(s string) (rune, int) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i]&0xC0 != 0x80 {
			return []rune(s[i:])[0], len(s) - i
		}
	}
	return 0, 1
}

// check checks the [oscquery] settings, naming the key at fault.
func (o *OSCQueryConfig) check() error {
	if !strings.HasPrefix(o.Name, "gloved") || len(o.Name) > maxNameLen || strings.ContainsFunc(o.Name, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return fmt.Errorf("oscquery.name = %q: want a name starting with gloved, at most %d bytes, no control characters", o.Name, maxNameLen)
	}
	if _, port, err := net.SplitHostPort(o.Listen); err != nil || port == "" {
		return fmt.Errorf("oscquery.listen = %q: want host:port, such as 127.0.0.1:9432 (port 0: any free port)", o.Listen)
	}
	for i, n := range o.Interfaces {
		if n == "" || slices.Contains(o.Interfaces[:i], n) {
			return fmt.Errorf("oscquery.interfaces[%d] = %q: want the name of a network interface, each once", i, n)
		}
	}
	return nil
}

// targets splits osc.targets into addresses and the globs of
// "oscquery:GLOB" entries.
func (o *OSCConfig) targets() (addrs, globs []string) {
	for _, t := range o.Targets {
		if g, ok := strings.CutPrefix(t, oscqueryTarget); ok {
			globs = append(globs, g)
		} else {
			addrs = append(addrs, t)
		}
	}
	return addrs, globs
}

// oscqueryTarget starts an osc.targets entry found over mDNS.
const oscqueryTarget = "oscquery:"

// checkTargets checks the oscquery: entries of osc.targets.
func (c *Config) checkTargets() error {
	for i, t := range c.OSC.Targets {
		g, ok := strings.CutPrefix(t, oscqueryTarget)
		if !ok {
			continue
		}
		if _, err := path.Match(g, ""); g == "" || err != nil {
			return fmt.Errorf("osc.targets[%d] = %q: want oscquery: and a glob of OSCQuery instance names, such as oscquery:VRChat-Client-*", i, t)
		}
		if !c.OSCQuery.on() {
			return fmt.Errorf("osc.targets[%d] = %q: apps are found over mDNS by the OSCQuery service, which [oscquery] enabled = false turns off", i, t)
		}
	}
	return nil
}

// Space is the OSCQuery address space of the config: its prefix and
// hands.
func (c *Config) Space() oscquery.Space {
	s := oscquery.Space{Prefix: c.OSC.Prefix, Description: "gloved: the contacts of an articulated hand with a scene, frame by frame (" + strings.Join(c.handNames(), ", ") + ")"}
	for i, h := range c.Hands {
		links := handmodel.FingerLinks
		if spec := c.Spec(i); spec.HandParams(true).Forearm {
			links++
		}
		s.Hands = append(s.Hands, oscquery.Hand{Name: h.Name, Shape: osc.Shape{Joints: int(handmodel.NumJoints), Links: links}})
	}
	return s
}

func (c *Config) handNames() []string {
	out := make([]string, len(c.Hands))
	for i, h := range c.Hands {
		out[i] = h.Name
	}
	return out
}

// Tree is the config's OSCQuery tree: gloved's contract (osc.Methods) for
// its hands.
func (c *Config) Tree() (*oscquery.Tree, error) {
	return c.Space().Tree(osc.Methods())
}

// discovered is where the apps found over mDNS go: the hub's targets,
// after osc.targets' addresses.
type discovered struct {
	mu     sync.Mutex
	hub    *osc.Hub
	static []string
	found  map[string]netip.AddrPort
}

// Found adds or moves an app.
func (s *discovered) Found(instance string, ap netip.AddrPort) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.found[instance] = ap
	s.apply()
}

// Lost drops an app.
func (s *discovered) Lost(instance string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.found, instance)
	s.apply()
}

// use points s at a (new) hub with the config's addresses.
func (s *discovered) use(hub *osc.Hub, static []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hub, s.static = hub, static
	return s.apply()
}

// apply sets the hub's targets: the addresses, then each app found once.
func (s *discovered) apply() error {
	all := slices.Clone(s.static)
	names := make([]string, 0, len(s.found))
	for n := range s.found {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if a := s.found[n].String(); !slices.Contains(all, a) {
			all = append(all, a)
		}
	}
	return s.hub.SetTargets(all)
}

// openOSCQuery starts the OSCQuery service's HTTP server, unless a
// reload carried one over (it gets the new tree) or the config turns it
// off. It runs after the hub is open (the service advertises the hub's
// address) and before the hands (a port in use fails the start before a
// recording is made); Run advertises it.
func (d *Daemon) openOSCQuery() error {
	cfg := d.config
	static, globs := cfg.OSC.targets()
	if d.oscq == nil && cfg.OSCQuery.on() {
		tree, err := cfg.Tree()
		if err != nil {
			return fmt.Errorf("%w: oscquery: %v", ErrConfig, err)
		}
		policy, err := cfg.OSC.Policy()
		if err != nil {
			return fmt.Errorf("%w: %v", ErrConfig, err)
		}
		d.found = &discovered{found: map[string]netip.AddrPort{}}
		q := cfg.OSCQuery
		s, err := oscquery.Listen(oscquery.Config{Name: q.Name, Listen: q.Listen, OSC: d.hub.Addr().(*net.UDPAddr).AddrPort(),
			Interfaces: q.Interfaces, Allow: policy.Allow, Discover: globs, Sink: d.found,
			Warn: func(msg string, kv ...any) { d.log.Warn().Fields(kv).Msg(msg) },
			Info: func(msg string, kv ...any) { d.log.Info().Fields(kv).Msg(msg) }}, tree)
		if err != nil {
			if errors.Is(err, oscquery.ErrInUse) {
				return fmt.Errorf("oscquery.listen = %q: the port is in use (another gloved, or another server?): choose a free port for oscquery.listen, or 0 for any", q.Listen)
			}
			return fmt.Errorf("oscquery.listen = %q: %v", q.Listen, strings.TrimPrefix(err.Error(), "oscquery: "))
		}
		d.oscq = s
	} else if d.oscq != nil {
		tree, err := cfg.Tree()
		if err != nil {
			return fmt.Errorf("%w: oscquery: %v", ErrConfig, err)
		}
		d.oscq.SetTree(tree)
	}
	var err error
	if d.found == nil {
		err = d.hub.SetTargets(static)
	} else {
		err = d.found.use(d.hub, static)
	}
	if err != nil {
		return fmt.Errorf("%w: osc.targets: %v", ErrConfig, err)
	}
	return nil
}

// sameOSCQuery reports whether a reload to next may keep the running
// OSCQuery service: the same settings, the same allow list, the same
// apps looked for, and the OSC socket kept.
func (d *Daemon) sameOSCQuery(next *Config, hubKept bool) bool {
	a, b := d.config, next
	_, ga := a.OSC.targets()
	_, gb := b.OSC.targets()
	return d.oscq != nil && hubKept && b.OSCQuery.on() && a.OSCQuery.Name == b.OSCQuery.Name && a.OSCQuery.Listen == b.OSCQuery.Listen &&
		slices.Equal(a.OSCQuery.Interfaces, b.OSCQuery.Interfaces) && slices.Equal(a.OSC.Allow, b.OSC.Allow) && slices.Equal(ga, gb)
}

// OSCQueryURL is the OSCQuery tree's address, or "" if there is none.
func (d *Daemon) OSCQueryURL() string {
	if d.oscq == nil {
		return ""
	}
	return d.oscq.Server.URL()
}
