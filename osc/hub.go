package osc

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/netip"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/internal/loglimit"
	"github.com/gloved/gloved/internal/uptime"
)

// Default addresses: gloved's own ports, not VRChat's 9000 and 9001 (where
// VRChat and every VRChat OSC app listen), nor those of other common OSC
// peers (TouchOSC 8000/9000, VMC 39539/39540, SuperCollider 57110/57120,
// Sonic Pi 4557-4560, Resolume 7000, QLab 53000), below the ephemeral
// range.
const (
	DefaultListen = "127.0.0.1:9431" // the hub's socket: subscriptions and wrist poses
	DefaultTarget = "127.0.0.1:9430" // where commands send frames when told nothing else
)

// MaxSubscribers bounds run-time subscriptions.
const MaxSubscribers = 32

// HubStats counts a hub's traffic and faults.
type HubStats struct {
	PacketsSent, SendErrors atomic.Uint64
	// PacketsReceived counts datagrams; Malformed those that do not decode,
	// Unknown messages to no known address (a wrist pose for a hand
	// OnWrist does not have among them), Rejected known messages with the
	// wrong arguments.
	PacketsReceived, Malformed, Unknown, Rejected atomic.Uint64
	// Denied counts control messages (wrist poses) from sources that are
	// neither loopback nor in the allow list.
	Denied atomic.Uint64
	// Refused counts subscriptions and unsubscriptions the rules refused
	// (destination, limits, ownership, unresolvable host).
	Refused atomic.Uint64
	// Expired counts subscriptions that lapsed without renewal.
	Expired atomic.Uint64
	// BadPoses counts wrist poses dropped: not finite, zero quaternion or
	// outside the workspace box.
	BadPoses atomic.Uint64
	// NonFinite counts frames and messages not sent for holding a NaN or
	// an infinity (point each Writer.NonFinite here).
	NonFinite atomic.Uint64
	// RepliesLimited counts acknowledgements not sent under the reply
	// rate limit.
	RepliesLimited atomic.Uint64
	// Challenges counts tokens sent to a subscription's destination that
	// is not loopback, for it to prove it receives there before any frame
	// goes to it; BadTokens subscriptions whose token was wrong, too old
	// or another destination's (sent a new one).
	Challenges, BadTokens atomic.Uint64
	// Withheld counts replies not sent to an address that has not proven
	// it receives there: larger than the request, or over the unproven
	// budget.
	Withheld atomic.Uint64
}

// Counter names one of HubStats' counters for a metrics endpoint.
type Counter struct {
	Name, Help string
	Value      *atomic.Uint64
}

// Counters lists every counter of s with a metric-style name
// ("packets_sent").
func (s *HubStats) Counters() []Counter {
	return []Counter{
		{"packets_sent", "OSC packets sent.", &s.PacketsSent},
		{"send_errors", "OSC send errors.", &s.SendErrors},
		{"packets_received", "OSC packets received.", &s.PacketsReceived},
		{"malformed", "Malformed OSC packets dropped.", &s.Malformed},
		{"unknown", "OSC messages to unknown addresses dropped (wrist poses for no configured hand among them).", &s.Unknown},
		{"rejected", "OSC messages with wrong arguments dropped.", &s.Rejected},
		{"denied", "OSC control messages from sources outside osc.allow dropped.", &s.Denied},
		{"refused", "OSC subscriptions and unsubscriptions refused.", &s.Refused},
		{"expired", "OSC subscriptions expired without renewal.", &s.Expired},
		{"bad_poses", "OSC wrist poses dropped (not finite, outside osc.wrist_box or a zero quaternion).", &s.BadPoses},
		{"nonfinite", "OSC frames and messages not sent for holding a NaN or an infinity.", &s.NonFinite},
		{"replies_limited", "OSC replies not sent under the rate limit.", &s.RepliesLimited},
		{"challenges", "OSC tokens sent to a subscription's destination, which gets no frame until it sends one back.", &s.Challenges},
		{"bad_tokens", "OSC subscriptions with a token that is wrong, too old or another destination's (sent a new one).", &s.BadTokens},
		{"replies_withheld", "OSC replies not sent to an address that has not proven it receives there: larger than the request, or over the unproven budget.", &s.Withheld},
	}
}

// packetWriter is where a hub's datagrams go: its socket, or a recorder in
// tests.
type packetWriter interface {
	WriteToUDPAddrPort(b []byte, addr netip.AddrPort) (int, error)
}

// Hub owns the daemon's UDP socket: frames go out from it to the
// configured targets and to subscribers, and it receives
// <prefix>/subscribe s host i port [s token], <prefix>/unsubscribe s host
// i port [s token] and <prefix>/<hand>/wrist f f f (position) f f f f
// (quaternion x y z w). What it accepts from whom is its Policy; a
// destination that is not loopback gets frames only once it has sent back
// its token (tokenKeys); whatever else arrives, malformed or hostile, is
// counted and dropped.
type Hub struct {
	Stats HubStats
	// OnWrist receives wrist poses by hand name, only from trusted
	// sources, finite and inside the workspace box, and reports whether a
	// hand of that name took it (a pose for none is counted as Unknown);
	// set before Serve.
	OnWrist func(hand string, p mgl64.Vec3, q mgl64.Quat) bool
	// Log, if set, receives the hub's warnings as a message and key-value
	// pairs, at most one line a second of each kind; set before Serve.
	Log func(msg string, kv ...any)

	addr     controlAddresses
	conn     *net.UDPConn // nil when the handler is tested alone
	out      packetWriter
	local    netip.AddrPort       // the socket's address; zero when there is none
	clock    func() time.Duration // monotonic (uptime.Now): no lease, limit or key follows the wall clock
	resolve  func(ctx context.Context, host string) ([]netip.Addr, error)
	lookups  chan lookup
	bcast    []netip.Addr // the broadcast addresses of this machine's networks
	own      []netip.Addr // this machine's addresses (MachineAddrs)
	replies  rateLimit    // every reply
	unproven rateLimit    // replies to addresses that have not proven they receive
	tokens   tokenKeys
	logs     loglimit.Limiter
	sendLogs loglimit.Limiter // sends that failed

	mu     sync.RWMutex
	policy Policy
	// static are the gloved profile's destinations (osc.targets), which
	// an OSCQuery browser may change while frames go out.
	static     *Targets
	subs       []lease
	subDests   []netip.AddrPort // the subscriptions' destinations, rebuilt on change
	nextExpiry atomic.Int64     // the clock's reading when the first lease lapses
}

// newHub returns a hub with the default policy and no socket.
func newHub(prefix string) *Hub {
	h := &Hub{addr: newControlAddresses(prefix), clock: uptime.Now, resolve: lookupHost,
		lookups: make(chan lookup, maxPendingLookups), policy: DefaultPolicy(), logs: loglimit.Limiter{Every: time.Second}, sendLogs: loglimit.Limiter{Every: time.Minute},
		replies:  rateLimit{perSource: RepliesPerSource, total: RepliesPerSecond, sources: maxReplySources},
		unproven: rateLimit{perSource: UnprovenPerAddress, total: UnprovenPerSecond, sources: maxReplySources}}
	h.nextExpiry.Store(math.MaxInt64)
	return h
}

// Listen opens the hub's socket at addr ("127.0.0.1:9431"; port 0 picks
// one) with the default policy.
func Listen(addr, prefix string) (*Hub, error) {
	ua, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, fmt.Errorf("osc: listen address %q: %w", addr, err)
	}
	c, err := net.ListenUDP("udp", ua)
	if err != nil {
		return nil, fmt.Errorf("osc: listen on %s: %w", addr, err)
	}
	// A larger receive buffer rides out bursts (the kernel may cap it).
	c.SetReadBuffer(4 << 20)
	h := newHub(prefix)
	h.conn, h.out = c, c
	h.local = c.LocalAddr().(*net.UDPAddr).AddrPort()
	h.bcast, h.own = interfaceBroadcasts(), MachineAddrs()
	return h, nil
}

// Addr returns the address the hub listens on.
func (h *Hub) Addr() net.Addr { return h.conn.LocalAddr() }

// AddTarget adds a fixed destination ("127.0.0.1:9430"). Targets come
// from the configuration and are not subject to the policy.
func (h *Hub) AddTarget(addr string) error {
	ap, err := resolveTarget(addr)
	if err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	t := &Targets{found: map[string]netip.AddrPort{}}
	if h.static != nil {
		t.fixed, t.patterns = slices.Clone(h.static.fixed), h.static.patterns
	}
	t.fixed = append(t.fixed, ap)
	t.publish()
	h.static = t
	return nil
}

// SetTargets replaces the fixed destinations (a reload) with those
// NewTargets reads from addrs; subscribers stay. On an error none is
// changed.
func (h *Hub) SetTargets(addrs []string) error {
	t, err := NewTargets(addrs)
	if err != nil {
		return err
	}
	h.UseTargets(t)
	return nil
}

// UseTargets makes t the destinations of the gloved profile, which Send
// sends to besides the subscribers.
func (h *Hub) UseTargets(t *Targets) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.static = t
}

// Targets returns the gloved profile's destinations (nil before any are
// set).
func (h *Hub) Targets() *Targets {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.static
}

// resolveTarget reads "host:port", resolving a host name.
func resolveTarget(addr string) (netip.AddrPort, error) {
	ap, err := netip.ParseAddrPort(addr)
	if err == nil {
		return ap, nil
	}
	ua, rerr := net.ResolveUDPAddr("udp", addr)
	if rerr != nil {
		return netip.AddrPort{}, fmt.Errorf("osc: target %q: %w", addr, rerr)
	}
	ap = ua.AddrPort()
	return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()), nil
}

// Send writes every packet to the gloved profile's destinations and to
// every subscriber, each destination once. Send errors (an unreachable
// subscriber) are counted, not returned: one bad target must not stop the
// others. Lapsed subscriptions are dropped first.
func (h *Hub) Send(packets [][]byte) {
	if now := h.clock(); int64(now) >= h.nextExpiry.Load() {
		h.mu.Lock()
		h.expire(now)
		h.mu.Unlock()
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	static := h.static.Addrs()
	h.write(static, packets)
	for _, t := range h.subDests {
		if !slices.Contains(static, t) { // a subscribed target gets each frame once
			h.writeTo(t, packets)
		}
	}
}

// SendTo writes every packet to t's destinations (another profile's),
// counting sends and errors as Send does. A nil t has none.
func (h *Hub) SendTo(t *Targets, packets [][]byte) { h.write(t.Addrs(), packets) }

// write sends the packets to each of dests.
func (h *Hub) write(dests []netip.AddrPort, packets [][]byte) {
	for _, t := range dests {
		h.writeTo(t, packets)
	}
}

// writeTo sends the packets to dst, counting each.
func (h *Hub) writeTo(dst netip.AddrPort, packets [][]byte) {
	for _, p := range packets {
		if _, err := h.out.WriteToUDPAddrPort(p, dst); err != nil {
			h.Stats.SendErrors.Add(1)
			h.sendFailed(dst, len(p), err)
			continue
		}
		h.Stats.PacketsSent.Add(1)
	}
}

// sendFailed says that a datagram could not be sent: the first time,
// then at most once a minute while sends go on failing (a destination
// that refuses every frame would otherwise fill the log, or, unsaid,
// leave only gloved_osc_send_errors_total climbing).
func (h *Hub) sendFailed(dst netip.AddrPort, size int, err error) {
	h.sendLogs.Log(h.Log, "send", time.Now(), "osc: a datagram could not be sent (gloved_osc_send_errors_total counts them; said at most once a minute)",
		"to", dst.String(), "bytes", size, "error", err.Error())
}

// Serve receives until ctx ends or the hub is closed. It warns first when
// the socket is reachable from other machines and no allow list is set.
// The socket stays open when ctx ends (a reload hands the hub on); Close
// closes it.
func (h *Hub) Serve(ctx context.Context) error {
	if h.exposed() {
		h.warn("osc: listening on a non-loopback address without osc.allow: any host that reaches it may subscribe itself; set osc.allow to the hosts you trust",
			"listen", h.local.String())
	}
	var resolving sync.WaitGroup
	defer resolving.Wait() // no lookup outlives Serve (a reload hands the hub on)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	h.conn.SetReadDeadline(time.Time{})
	defer context.AfterFunc(ctx, func() { h.conn.SetReadDeadline(time.Now()) })()
	resolving.Add(1)
	go func() {
		defer resolving.Done()
		h.resolveLoop(ctx)
	}()
	buf := make([]byte, 65536)
	for {
		n, src, err := h.conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			continue
		}
		h.Stats.PacketsReceived.Add(1)
		h.handle(buf[:n], src)
	}
}

// exposed reports whether the socket listens beyond loopback with no
// allow list.
func (h *Hub) exposed() bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.local.IsValid() && !h.local.Addr().Unmap().IsLoopback() && len(h.policy.Allow) == 0
}

// Close closes the socket.
func (h *Hub) Close() error { return h.conn.Close() }
