package daemon

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gloved/gloved/access"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/internal/loglimit"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/profile"
	"github.com/gloved/gloved/oscquery"
)

// OSCQueryConfig is the OSCQuery service ([oscquery]): the tree of what
// gloved sends and accepts served over HTTP, advertised over mDNS, and
// the discovery of the apps that osc.targets and the profiles' targets
// name as "oscquery:GLOB".
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
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}

// check checks the [oscquery] settings, naming the key at fault.
func (o *OSCQueryConfig) check() error {
	// No control or format characters (Cc, Cf: a right-to-left override
	// would show another name in every browser's list), valid UTF-8.
	if !strings.HasPrefix(o.Name, "gloved") || len(o.Name) > maxNameLen || !utf8.ValidString(o.Name) ||
		strings.ContainsFunc(o.Name, func(r rune) bool { return unicode.In(r, unicode.Cc, unicode.Cf) }) {
		return fmt.Errorf("oscquery.name = %q: want a name starting with gloved, at most %d bytes of UTF-8, no control or format characters (such as bidirectional overrides)", o.Name, maxNameLen)
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

// globs returns the OSCQuery patterns of every targets list (osc.targets
// and each profile's), each once, sorted: the apps to look for.
func (c *Config) globs() []string {
	var out []string
	for _, list := range c.targetLists() {
		for _, t := range list.targets {
			if g, ok := strings.CutPrefix(t, osc.OSCQueryTarget); ok && !slices.Contains(out, g) {
				out = append(out, g)
			}
		}
	}
	slices.Sort(out)
	return out
}

// targetList is a targets list and its key.
type targetList struct {
	key     string
	targets []string
}

func (c *Config) targetLists() []targetList {
	out := []targetList{{"osc.targets", c.OSC.Targets}}
	for i, p := range c.OSC.Profiles {
		out = append(out, targetList{fmt.Sprintf("osc.profile[%d].targets", i), p.Targets})
	}
	return out
}

// checkTargets checks that oscquery: targets have the service that finds
// them.
func (c *Config) checkTargets() error {
	if c.OSCQuery.on() {
		return nil
	}
	for _, list := range c.targetLists() {
		for i, t := range list.targets {
			if strings.HasPrefix(t, osc.OSCQueryTarget) {
				return fmt.Errorf("%s[%d] = %q: apps are found over mDNS by the OSCQuery service, which [oscquery] enabled = false turns off", list.key, i, t)
			}
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

// Tree is the config's OSCQuery tree: gloved's contract (osc.Methods, as
// osc.targets and the subscribers get it) and that of each output
// profile the config names (profile.TreeMethods: its contract in its
// coordinates, or what else it puts in the tree; the vrchat profile's
// avatar parameters are left out), for its hands. An address is one
// node: where streams send it in other coordinates (a gloved profile's,
// a second openxr profile's), the node is the first's, gloved's own
// before the profiles', and its description says which profiles send it
// in which coordinates; a profile that sends only what is there already,
// as it is there (a second vmc profile), adds nothing.
func (c *Config) Tree() (*oscquery.Tree, error) {
	lists := [][]osc.Method{osc.Methods()}
	// Each address's node by path, and what it said before the notes.
	first, said := map[string]*osc.Method{}, map[string]osc.Method{}
	for i := range lists[0] {
		first[lists[0][i].Path], said[lists[0][i].Path] = &lists[0][i], lists[0][i]
	}
	for i, p := range c.OSC.Profiles {
		if p.configured == nil {
			return nil, fmt.Errorf("osc.profile[%d]: the config was not checked (ParseConfig, Normalize)", i)
		}
		ms := profile.TreeMethods(p.configured)
		var fresh []osc.Method
		for k := range ms {
			m := &ms[k]
			if f, ok := first[m.Path]; ok {
				if was := said[m.Path]; !sameMeaning(&was, m) {
					f.Description += p.sendsItToo(i)
				}
				continue
			}
			fresh = append(fresh, *m)
		}
		for k := range fresh {
			first[fresh[k].Path], said[fresh[k].Path] = &fresh[k], fresh[k]
		}
		if fresh != nil {
			lists = append(lists, fresh)
		}
	}
	return c.Space().Tree(lists...)
}

// sendsItToo is the note a node of the tree gets for profile i, which
// sends its address with another meaning: in its coordinates, where it
// has any.
func (p *ProfileConfig) sendsItToo(i int) string {
	if p.conv.Name() == "" {
		return fmt.Sprintf(" osc.profile[%d] sends it to its targets too, as its own contract says.", i)
	}
	return fmt.Sprintf(" osc.profile[%d] sends it to its targets in %s.", i, osc.Coordinates(p.conv))
}

// sameMeaning reports whether two descriptions of one address say the
// same: the same description and units (the same coordinates).
func sameMeaning(a, b *osc.Method) bool {
	if a.Description != b.Description || len(a.Args) != len(b.Args) || len(a.Each) != len(b.Each) {
		return false
	}
	for k := range a.Args {
		if a.Args[k].Unit != b.Args[k].Unit {
			return false
		}
	}
	for k := range a.Each {
		if a.Each[k].Unit != b.Each[k].Unit {
			return false
		}
	}
	return true
}

// apps passes the apps an OSCQuery browser finds on to every destination
// list of the running daemon (osc.Targets: each takes those its patterns
// match, within its caps), and to the next daemon's after a reload, which
// starts its lists afresh: in the order they were found, so that the apps
// sent to before are those sent to after.
type apps struct {
	mu    sync.Mutex
	lists []*osc.Targets
	found map[string]netip.AddrPort
	order []string // found's names, in the order they were found
	log   func(msg string, kv ...any)
	said  loglimit.Limiter
	// waited: the apps found that waited, beyond a list's caps, since
	// they were found; leftOut counts them, across reloads.
	waited  map[string]bool
	leftOut atomic.Uint64
}

// Found passes an app that appeared or moved on.
func (a *apps) Found(instance string, ap netip.AddrPort) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.found[instance]; !ok {
		a.order = append(a.order, instance)
	}
	a.found[instance] = ap
	for _, t := range a.lists {
		t.Found(instance, ap)
		if t.Waiting(instance) && !a.waited[instance] {
			a.waited[instance] = true
			a.leftOut.Add(1)
			a.said.Log(a.log, "apps", time.Now(), "oscquery: more apps match osc.targets than frames are sent to; this one waits for one of them to go",
				"instance", instance, "address", ap.String(), "per_glob", osc.MaxFoundPerGlob, "in_all", osc.MaxFound)
		}
	}
}

// Lost passes an app that went away on.
func (a *apps) Lost(instance string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.found, instance)
	delete(a.waited, instance)
	a.order = slices.DeleteFunc(a.order, func(n string) bool { return n == instance })
	for _, t := range a.lists {
		t.Lost(instance)
	}
}

// use makes lists the destinations, telling them the apps found so far.
func (a *apps) use(lists []*osc.Targets) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.lists = lists
	for _, name := range a.order {
		for _, t := range lists {
			t.Found(name, a.found[name])
		}
	}
}

// openOSCQuery starts the OSCQuery service's HTTP server, unless a
// reload carried one over (it gets the new tree) or the config turns it
// off. It runs after the hub is open (the service advertises the hub's
// address) and before the hands (a port in use fails the start before a
// recording is made); Run advertises it.
func (d *Daemon) openOSCQuery() error {
	cfg := d.config
	if !cfg.OSCQuery.on() {
		return nil
	}
	tree, err := cfg.Tree()
	if err != nil {
		return fmt.Errorf("%w: oscquery: %v", ErrConfig, err)
	}
	if d.oscq != nil { // carried over by a reload
		d.oscq.SetTree(tree)
		d.apps.use(d.Outputs())
		return nil
	}
	policy, err := cfg.OSC.Policy()
	if err != nil {
		return fmt.Errorf("%w: %v", ErrConfig, err)
	}
	d.apps = &apps{found: map[string]netip.AddrPort{}, waited: map[string]bool{}, log: func(msg string, kv ...any) { d.log.Warn().Fields(kv).Msg(msg) },
		said: loglimit.Limiter{Every: time.Minute}}
	d.apps.use(d.Outputs())
	q := cfg.OSCQuery
	s, err := oscquery.Listen(oscquery.Config{Name: q.Name, Listen: q.Listen, OSC: d.hub.Addr().(*net.UDPAddr).AddrPort(), Inputs: cfg.trackerInputs(),
		Interfaces: q.Interfaces, Allow: policy.Allow, Discover: cfg.globs(), Sink: d.apps,
		Warn: func(msg string, kv ...any) { d.log.Warn().Fields(kv).Msg(msg) },
		Info: func(msg string, kv ...any) { d.log.Info().Fields(kv).Msg(msg) }}, tree)
	if err != nil {
		if errors.Is(err, access.ErrInUse) {
			return fmt.Errorf("oscquery.listen = %q: the port is in use (another gloved, or another server?): choose a free port for oscquery.listen, or 0 for any", q.Listen)
		}
		return fmt.Errorf("oscquery.listen = %q: %v", q.Listen, strings.TrimPrefix(err.Error(), "oscquery: "))
	}
	d.oscq = s
	return nil
}

// sameOSCQuery reports whether a reload to next may keep the running
// OSCQuery service: the same settings, the same allow list, the same
// apps looked for, the OSC socket kept, the same tracker hands' sockets
// (no app is found there), and the network interfaces as mDNS found
// them (an interface or address that came or went since, or mDNS that
// could not start and now could, starts the service afresh).
func (d *Daemon) sameOSCQuery(next *Config, hubKept bool) bool {
	a, b := d.config, next
	return d.oscq != nil && hubKept && b.OSCQuery.on() && a.OSCQuery.Name == b.OSCQuery.Name && a.OSCQuery.Listen == b.OSCQuery.Listen &&
		slices.Equal(a.OSCQuery.Interfaces, b.OSCQuery.Interfaces) && slices.Equal(a.OSC.Allow, b.OSC.Allow) && slices.Equal(a.globs(), b.globs()) &&
		slices.Equal(a.trackerInputs(), b.trackerInputs()) && !d.oscq.Stale()
}

// OSCQueryURL is the OSCQuery tree's address, or "" if there is none.
func (d *Daemon) OSCQueryURL() string {
	if d.oscq == nil {
		return ""
	}
	return d.oscq.Server.URL()
}
