package mdns

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gloved/gloved/internal/loglimit"
	"github.com/miekg/dns"
)

// Stats count a peer's traffic.
type Stats struct {
	// Received counts datagrams; Malformed those that do not decode and
	// the records skipped in those that partly do; Ignored those off the
	// link, or responses from a port other than 5353.
	Received, Malformed, Ignored atomic.Uint64
	Sent, SendErrors             atomic.Uint64
	Answered                     atomic.Uint64 // queries answered
	Limited                      atomic.Uint64 // answers held back by the rate limits
	Conflicts, Renames           atomic.Uint64
	// Refused counts the addresses of services found that were left
	// out (see Config.Trusted), each instance and address once.
	Refused atomic.Uint64
}

// Config is what a Peer advertises and looks for, and where.
type Config struct {
	// Interfaces are those mDNS runs on (see Interfaces); a service is
	// advertised on those it is reached through, and browsing runs on
	// all of them.
	Interfaces []Interface
	// Instance is the name the Services are advertised under; another
	// host holding it makes it "Instance (2)", and so on.
	Instance string
	Services []Service
	// Browse are the service types looked for ("_osc._udp").
	Browse []string
	// Match, if set, narrows browsing to the instances whose names it
	// accepts ("VRChat-Client-A1B2C3"): only their records are kept.
	Match func(instance string) bool
	// Trusted are the addresses beyond the link that a service found may
	// be at (gloved: osc.allow). Any host on a link can advertise a
	// service at any address; without trust, a service's address must
	// be on the link its records came through or the sender's own, and a
	// loopback address must come from this machine. Others are left out,
	// logged and counted (Stats.Refused).
	Trusted []netip.Prefix
	// OnName hears the name the services were announced under, and each
	// rename; OnFail that they are not advertised after all (every name
	// tried, Instance to "Instance (100)", is taken), browsing going on;
	// OnFound and OnLost the instances of the browsed types that appear,
	// move (OnFound again, with the new address) and vanish. They run on
	// the peer's goroutine: they must not block.
	OnName  func(string)
	OnFail  func(error)
	OnFound func(Found)
	OnLost  func(Found)
	// Log, if set, hears the peer's warnings, at most one line a minute
	// of each kind.
	Log func(msg string, kv ...any)
}

// Peer is this process's part in multicast DNS: one socket on the
// configured interfaces, a responder for its services and a browser for
// the types it looks for.
type Peer struct {
	stats Stats
	c     *conn
	resp  *responder
	br    *browser
	logs  loglimit.Limiter
	log   func(msg string, kv ...any)

	in      chan received
	closing chan chan struct{}
	wg      sync.WaitGroup
	once    sync.Once

	mu   sync.Mutex
	name string
}

// Start opens the socket and starts advertising and browsing. It fails
// when there is nothing to do, when port 5353 cannot be shared, or when no
// interface joins the mDNS group.
func Start(cfg Config) (*Peer, error) {
	if len(cfg.Services) == 0 && len(cfg.Browse) == 0 {
		return nil, errors.New("mdns: nothing to advertise or browse")
	}
	for _, s := range cfg.Services {
		if err := s.check(); err != nil {
			return nil, err
		}
	}
	if len(cfg.Services) > 0 && (cfg.Instance == "" || len(cfg.Instance) > maxLabel) {
		return nil, fmt.Errorf("mdns: instance name %q: want 1 to %d bytes", cfg.Instance, maxLabel)
	}
	c, err := listen(cfg.Interfaces)
	if err != nil {
		return nil, err
	}
	p := &Peer{c: c, in: make(chan received, 64), closing: make(chan chan struct{}), log: cfg.Log, logs: loglimit.Limiter{Every: time.Minute}}
	now := time.Now()
	ifaces := make([]*Interface, len(c.ifaces))
	for k := range c.ifaces {
		ifaces[k] = &c.ifaces[k]
	}
	if len(cfg.Services) > 0 {
		p.resp = newResponder(cfg.Instance, cfg.Services, ifaces, now, &p.stats)
		p.resp.log = p.logf
		p.resp.onName = func(n string) {
			p.mu.Lock()
			p.name = n
			p.mu.Unlock()
			if cfg.OnName != nil {
				cfg.OnName(n)
			}
		}
		p.resp.onFail = func(err error) {
			p.mu.Lock()
			p.name = ""
			p.mu.Unlock()
			if cfg.OnFail != nil {
				cfg.OnFail(err)
			}
		}
	}
	if len(cfg.Browse) > 0 {
		p.br = newBrowser(cfg.Browse, now)
		p.br.match, p.br.trusted = cfg.Match, cfg.Trusted
		p.br.onFound, p.br.onLost, p.br.log, p.br.stats = cfg.OnFound, cfg.OnLost, p.logf, &p.stats
	}
	p.wg.Add(2)
	go p.read()
	go p.run()
	return p, nil
}

// Name returns the name the services were announced under ("" until
// they are, and after every name tried was taken).
func (p *Peer) Name() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.name
}

// Interfaces returns the interfaces the peer joined the group on.
func (p *Peer) Interfaces() []Interface { return p.c.ifaces }

// Stats returns the peer's counters.
func (p *Peer) Stats() *Stats { return &p.stats }

// Close withdraws the services (goodbye packets, TTL 0) and closes the
// socket.
func (p *Peer) Close() error {
	var err error
	p.once.Do(func() {
		done := make(chan struct{})
		p.closing <- done
		<-done
		err = p.c.close()
		p.wg.Wait()
	})
	return err
}

// read passes datagrams to the run loop until the socket closes.
func (p *Peer) read() {
	defer p.wg.Done()
	defer close(p.in)
	buf := make([]byte, 9000)
	for {
		r, err := p.c.read(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			p.logf("mdns: reading", "err", err.Error())
			time.Sleep(10 * time.Millisecond)
			continue
		}
		r.b = append([]byte(nil), r.b...)
		select {
		case p.in <- r:
		default: // the run loop is behind: drop, as the network may
			p.stats.Ignored.Add(1)
		}
	}
}

// run owns the responder and browser: it hands them what arrives, ticks
// them when they are due and sends what they return.
func (p *Peer) run() {
	defer p.wg.Done()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case done := <-p.closing:
			if p.resp != nil {
				p.send(p.resp.goodbye())
			}
			close(done)
			for range p.in { // until read sees the socket closed
			}
			return
		case r, ok := <-p.in:
			if !ok {
				return
			}
			p.receive(r, time.Now())
		case <-timer.C:
		}
		now := time.Now()
		p.tick(now)
		next := time.Time{}
		if p.resp != nil {
			next = earliest(next, p.resp.due())
		}
		if p.br != nil {
			next = earliest(next, p.br.due())
		}
		wait := time.Hour
		if !next.IsZero() {
			wait = max(next.Sub(now), time.Millisecond)
		}
		timer.Reset(wait)
	}
}

// tick sends what is due.
func (p *Peer) tick(now time.Time) {
	if p.resp != nil {
		p.send(p.resp.tick(now))
	}
	if p.br != nil {
		if q := p.br.tick(now); q != nil {
			for k := range p.c.ifaces {
				p.send([]outgoing{{msg: q, iface: &p.c.ifaces[k]}})
			}
		}
	}
}

// receive decodes a datagram and hands it on. Responses must come from
// port 5353 (RFC 6762 section 6), and everything from this link: a
// source on one of the interface's networks, or loopback on loopback
// (section 11).
func (p *Peer) receive(r received, now time.Time) {
	p.stats.Received.Add(1)
	if !onLink(r.iface, r.src.Addr()) {
		p.stats.Ignored.Add(1)
		return
	}
	m, skipped, err := unpack(r.b)
	if err != nil {
		p.stats.Malformed.Add(1)
		p.logf("mdns: a malformed packet was dropped", "from", r.src.String(), "interface", r.iface.Name, "err", err.Error())
		return
	}
	if skipped > 0 {
		p.stats.Malformed.Add(uint64(skipped))
	}
	if m.Response && r.src.Port() != Port {
		p.stats.Ignored.Add(1)
		return
	}
	if p.resp != nil {
		p.send(p.resp.handle(m, r, now))
	}
	if p.br != nil {
		p.br.handle(m, r, now)
	}
}

// onLink reports whether src is on i's link.
func onLink(i *Interface, src netip.Addr) bool {
	src = src.Unmap()
	if src.IsLoopback() {
		return i.Loopback
	}
	for _, pre := range i.Prefixes {
		if pre.Contains(src) {
			return true
		}
	}
	return false
}

// pack is m as it goes on the wire: its names compressed (RFC 1035
// section 4.1.4), which a service's repeated suffixes shorten by half.
func pack(m *dns.Msg) ([]byte, error) {
	m.Compress = true
	return m.Pack()
}

// send packs and sends each message.
func (p *Peer) send(out []outgoing) {
	for _, o := range out {
		b, err := pack(o.msg)
		if err != nil {
			p.stats.SendErrors.Add(1)
			p.logf("mdns: a message could not be packed", "err", err.Error())
			continue
		}
		if o.to.IsValid() {
			err = p.c.unicast(b, o.iface, o.to)
		} else {
			err = p.c.multicast(b, o.iface)
		}
		if err != nil {
			p.stats.SendErrors.Add(1)
			p.logf("mdns: sending", "interface", o.iface.Name, "err", err.Error())
			continue
		}
		p.stats.Sent.Add(1)
	}
}

// logf logs a line, at most one a minute of each message: mDNS traffic
// on a busy network must not fill the log (OyasumiVR#80).
func (p *Peer) logf(msg string, kv ...any) {
	p.logs.Log(p.log, msg, time.Now(), msg, kv...)
}
