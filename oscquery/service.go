package oscquery

import (
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"sync"

	"github.com/gloved/gloved/mdns"
)

// Service types of an OSCQuery app (the proposal's _oscjson._tcp; the OSC
// server's _osc._udp, where VRChat and its apps look for OSC ports).
const (
	TypeJSON = "_oscjson._tcp"
	TypeOSC  = "_osc._udp"
)

// Config configures an OSCQuery service.
type Config struct {
	// Name is the instance name advertised ("gloved-labpc"); another
	// holding it on the network makes it "gloved-labpc (2)".
	Name string
	// Listen is the HTTP server's address ("127.0.0.1:0" picks a port).
	Listen string
	// OSC is where gloved's OSC socket is bound (osc.listen): HOST_INFO's
	// OSC_IP and OSC_PORT and the _osc._udp service.
	OSC netip.AddrPort
	// Inputs are where gloved's tracker hands listen (their
	// options.listen): an app found there is refused, as one at OSC is.
	Inputs []netip.AddrPort
	// Interfaces limits mDNS to these network interfaces (nil: every
	// one that can carry it).
	Interfaces []string
	// Allow lists the sources besides loopback that may read the tree,
	// and the addresses beyond the link that an app found may be sent to
	// (mdns.Config.Trusted).
	Allow []netip.Prefix
	// Discover are globs of the _osc._udp instance names to send to
	// ("VRChat-Client-*"); what is found goes to Sink.
	Discover []string
	Sink     Sink
	// Warn and Info, if set, hear what the service has to say: that it
	// is not advertised, and why; what it found.
	Warn, Info func(msg string, kv ...any)
}

// Service is gloved's OSCQuery service: the HTTP server of its tree, its
// advertisement over mDNS (_oscjson._tcp and _osc._udp, on the
// interfaces the HTTP server is reached through), and the browser that
// finds the apps of Discover.
type Service struct {
	cfg    Config
	Server *Server
	disc   *discovery

	advertise sync.Once
	mu        sync.Mutex
	peer      *mdns.Peer
	started   bool             // Advertise ran
	used      []mdns.Interface // the interfaces mDNS was started on, as they were then
	ifaces    []string         // their names
	why       string           // why it is not advertised ("" when it is, or is being)
	name      string
}

// Start serves the tree over HTTP and advertises and browses over mDNS;
// it is Listen, then Advertise.
func Start(cfg Config, tree *Tree) (*Service, error) {
	s, err := Listen(cfg, tree)
	if err != nil {
		return nil, err
	}
	s.Advertise()
	return s, nil
}

// Listen serves the tree over HTTP: a port in use is access.ErrInUse. The
// service is not advertised, nor are apps looked for, until Advertise. A
// tree served beyond loopback for an OSC socket on loopback is warned of:
// other machines would read an OSC_IP they cannot reach.
func Listen(cfg Config, tree *Tree) (*Service, error) {
	srv, err := ListenHTTP(cfg.Listen, Options{Allow: cfg.Allow, Log: cfg.Warn})
	if err != nil {
		return nil, err
	}
	s := &Service{cfg: cfg, Server: srv, name: cfg.Name}
	srv.SetTree(tree)
	srv.SetHost(cfg.Name, cfg.OSC)
	if http := srv.AddrPort().Addr().Unmap(); !http.IsLoopback() && cfg.OSC.Addr().Unmap().IsLoopback() {
		say(cfg.Warn, "oscquery: the tree is served beyond loopback but osc.listen is on loopback: HOST_INFO gives other machines OSC_IP "+
			cfg.OSC.Addr().String()+", which they cannot send to; set osc.listen to 0.0.0.0:PORT or an address of the network (and osc.allow)",
			"oscquery_listen", srv.AddrPort().String(), "osc_listen", cfg.OSC.String())
	}
	if len(cfg.Discover) > 0 {
		s.disc = newDiscovery(cfg.Discover, cfg.OSC, cfg.Inputs, cfg.Sink, cfg.Info)
	}
	return s, nil
}

// errPrivate is a tree served on loopback where loopback carries no
// multicast (Linux's lo by default): gloved's default, private to this
// machine, so it is said as information, not as a warning.
var errPrivate = errors.New("oscquery: served on loopback, which carries no multicast")

// Advertise starts mDNS, once: the advertisement and the looking for
// apps. mDNS failing (no interface that carries multicast where the tree
// is served, port 5353 not to be had) is said once through Warn (through
// Info for the default, a tree on loopback where it carries none), and
// leaves the tree served.
func (s *Service) Advertise() {
	s.advertise.Do(func() {
		if err := s.startMDNS(); err != nil {
			why := strings.TrimPrefix(err.Error(), errPrivate.Error()+": ")
			s.mu.Lock()
			s.why = why
			s.mu.Unlock()
			tell := s.cfg.Warn
			if errors.Is(err, errPrivate) {
				tell = s.cfg.Info
			}
			say(tell, "oscquery: not advertised over mDNS; the tree is served at "+s.Server.URL(), "why", why)
		}
	})
}

// interfaces returns the interfaces to advertise on (those the HTTP
// server is reached through) and to run mDNS on (those, and, when
// discovering, every interface mDNS may use), as they are now.
func (s *Service) interfaces() (advertise, use []mdns.Interface, err error) {
	all, err := mdns.Interfaces(s.cfg.Interfaces)
	if err != nil && (len(s.cfg.Interfaces) > 0 || !errors.Is(err, mdns.ErrNoInterface)) {
		return nil, nil, err
	}
	for _, i := range all {
		if _, ok := i.AddrFor(s.Server.AddrPort().Addr()); ok {
			advertise = append(advertise, i)
		}
	}
	use = advertise
	if s.disc != nil {
		use = all
	}
	return advertise, use, nil
}

// Stale reports whether the interfaces mDNS would run on now, or their
// addresses, differ from those it started on, or mDNS could not start
// where it now could run: a reload then replaces the service instead of
// keeping it (an interface that came up, an address that changed,
// loopback flagged multicast since, port 5353 freed). It is false until
// Advertise.
func (s *Service) Stale() bool {
	s.mu.Lock()
	used, started, running := s.used, s.started, s.peer != nil
	s.mu.Unlock()
	if !started {
		return false
	}
	_, use, _ := s.interfaces()
	if !running && len(use) > 0 {
		return true
	}
	return !slices.EqualFunc(used, use, func(a, b mdns.Interface) bool {
		return a.Index == b.Index && a.Name == b.Name && a.Loopback == b.Loopback && slices.Equal(a.Prefixes, b.Prefixes)
	})
}

// startMDNS starts the peer: on the interfaces the HTTP server is
// reached through, and, when discovering, on every interface mDNS may
// use.
func (s *Service) startMDNS() error {
	advertise, use, err := s.interfaces()
	s.mu.Lock()
	s.started, s.used = true, use
	for _, i := range use {
		s.ifaces = append(s.ifaces, i.Name)
	}
	s.mu.Unlock()
	if err != nil {
		return err
	}
	httpAddr := s.Server.AddrPort()
	var on []string
	for _, i := range advertise {
		on = append(on, i.Name)
	}
	if len(use) == 0 {
		return s.unreached("")
	}
	cfg := mdns.Config{Interfaces: use, Log: s.cfg.Warn, OnName: s.named, OnFail: s.unnamed}
	if len(advertise) > 0 {
		cfg.Instance = s.cfg.Name
		cfg.Services = []mdns.Service{
			{Type: TypeJSON, Port: httpAddr.Port(), Listen: httpAddr.Addr(), Text: []string{"txtvers=1"}, On: on},
			{Type: TypeOSC, Port: s.cfg.OSC.Port(), Listen: s.cfg.OSC.Addr(), Text: []string{"txtvers=1"}, On: on},
		}
	}
	if s.disc != nil {
		cfg.Browse, cfg.Match, cfg.Trusted = []string{TypeOSC}, s.disc.matches, s.cfg.Allow
		cfg.OnFound, cfg.OnLost = s.disc.found, s.disc.lost
	}
	p, err := mdns.Start(cfg)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.peer = p
	s.mu.Unlock()
	if len(advertise) == 0 {
		return s.unreached("; apps are still looked for")
	}
	return nil
}

// unreached says that no interface both reaches the tree and carries
// multicast, then more; for the default (the tree on loopback, no
// interfaces chosen) it wraps errPrivate.
func (s *Service) unreached(more string) error {
	at := s.Server.AddrPort().Addr()
	err := fmt.Errorf("no network interface both reaches oscquery.listen (%s) and carries multicast%s%s", s.Server.AddrPort(), loHint(at), more)
	if at.Unmap().IsLoopback() && len(s.cfg.Interfaces) == 0 {
		err = fmt.Errorf("%w: %w", errPrivate, err)
	}
	return err
}

// loHint says what makes Linux's loopback carry multicast, when listen
// is on loopback.
func loHint(listen netip.Addr) string {
	if listen.Unmap().IsLoopback() {
		return " (Linux's lo carries it once `ip link set lo multicast on`; or set oscquery.listen to an address of the network to advertise on)"
	}
	return ""
}

// named takes the name the services were announced under.
func (s *Service) named(name string) {
	s.mu.Lock()
	changed := s.name != name
	s.name, s.why = name, "" // advertised again after a storm took every name
	ifs := strings.Join(s.ifaces, ",")
	s.mu.Unlock()
	s.Server.SetHost(name, s.cfg.OSC)
	msg := "oscquery: advertised over mDNS"
	if changed {
		msg = "oscquery: advertised over mDNS under another name: the configured one is taken on the network"
	}
	say(s.cfg.Info, msg, "name", name, "tree", s.Server.URL(), "interfaces", ifs)
}

// unnamed takes the peer's word that every name it tried is taken: the
// service is not advertised for now (the peer tries again later).
func (s *Service) unnamed(err error) {
	why := strings.TrimPrefix(err.Error(), "mdns: ")
	s.mu.Lock()
	s.why = why
	s.mu.Unlock()
	say(s.cfg.Warn, "oscquery: not advertised over mDNS; the tree is served at "+s.Server.URL(), "why", why)
}

// Name returns the instance name (the configured one until announced).
func (s *Service) Name() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.name
}

// SetTree replaces the tree served (a reload with other hands).
func (s *Service) SetTree(t *Tree) { s.Server.SetTree(t) }

// Advertised reports whether the services are advertised (or being so).
func (s *Service) Advertised() bool { return s.NotAdvertised() == "" }

// NotAdvertised says why the services are not advertised, or "" when they
// are (or are being).
func (s *Service) NotAdvertised() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.why
}

// Found returns how many discovered apps match the globs (the
// destination lists send to some of them: osc.MaxFoundPerGlob).
func (s *Service) Found() int {
	if s.disc == nil {
		return 0
	}
	return s.disc.count()
}

// SelfRefused counts the apps found whose address is gloved's own OSC
// socket (osc.listen) or a tracker hand's (Inputs), refused as
// destinations.
func (s *Service) SelfRefused() uint64 {
	if s.disc == nil {
		return 0
	}
	return s.disc.selfRefused()
}

// MDNS returns the mDNS counters (nil when mDNS did not start).
func (s *Service) MDNS() *mdns.Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.peer == nil {
		return nil
	}
	return s.peer.Stats()
}

// Close withdraws the advertisement (goodbye packets) and stops serving.
func (s *Service) Close() error {
	s.mu.Lock()
	p := s.peer
	s.mu.Unlock()
	var err error
	if p != nil {
		err = p.Close()
	}
	return errors.Join(err, s.Server.Close())
}

// say logs through f, if it is set.
func say(f func(string, ...any), msg string, kv ...any) {
	if f != nil {
		f(msg, kv...)
	}
}
