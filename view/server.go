package view

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gloved/gloved/access"
	"github.com/gloved/gloved/internal/loglimit"
	"github.com/gloved/gloved/osc"
)

// DefaultWriteTimeout is how long a browser may take to accept one message
// before its connection is closed.
const DefaultWriteTimeout = 5 * time.Second

// DefaultMaxViewers is how many browsers may watch at once unless
// Options say otherwise.
const DefaultMaxViewers = 32

// spareConns are the connections the server holds besides its viewers':
// pages loading, and the viewers beyond the cap being turned away.
const spareConns = 32

// Options configure a Server.
type Options struct {
	// Allow lists the sources besides loopback that may open the page
	// (the config's osc.allow).
	Allow []netip.Prefix
	// WriteTimeout bounds each message to a browser (0: DefaultWriteTimeout).
	WriteTimeout time.Duration
	// MaxViewers caps the browsers watching at once (0:
	// DefaultMaxViewers); one more is turned away (503).
	MaxViewers int
	// Log, if set, hears refused requests, browsers turned away and
	// browsers that fell behind, at most one line of a kind a second.
	Log func(msg string, kv ...any)
}

// Stats count what the server did.
type Stats struct {
	// Browsers is how many are connected now.
	Browsers int
	// Sent counts hand frames sent to browsers; Skipped the frames a
	// browser never received because a newer one replaced it before it
	// asked (its refresh rate is below the frame rate, it was paused, or
	// slow).
	Sent, Skipped uint64
	// Refused counts requests refused by the allow rules; TurnedAway the
	// browsers refused because MaxViewers watched already; Dropped the
	// browsers disconnected for not taking a message in time.
	Refused, TurnedAway, Dropped uint64
}

// Server serves the page and streams frames to browsers.
type Server struct {
	opt  Options
	mux  *http.ServeMux
	gate *access.Gate
	http *access.Server
	ln   net.Listener
	logs loglimit.Limiter

	mu       sync.Mutex
	scene    []byte // the encoded scene message
	sceneGen uint64
	calib    []byte // the encoded calibration message, if one is shown
	calibGen uint64
	answers  chan Answer
	timeline *Timeline
	slots    []*slot
	viewers  int // browsers watching or being let in, at most opt.MaxViewers
	// browsers is replaced, never changed in place, so Publish reads it
	// without a lock.
	browsers atomic.Pointer[[]*browser]

	sent, skipped, turnedAway, dropped atomic.Uint64
	ctx                                context.Context
	cancel                             context.CancelFunc
}

// New makes a server that is not listening: serve its Handler.
func New(o Options) *Server {
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = DefaultWriteTimeout
	}
	if o.MaxViewers <= 0 {
		o.MaxViewers = DefaultMaxViewers
	}
	s := &Server{opt: o, mux: http.NewServeMux(), answers: make(chan Answer, 16), gate: access.NewGate("view", o.Log),
		logs: loglimit.Limiter{Every: time.Second}}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.browsers.Store(&[]*browser{})
	s.mux.Handle("GET /ws", http.HandlerFunc(s.serveWS))
	s.mux.Handle("GET /", serveAssets())
	return s
}

// Listen makes a server and serves it on addr ("127.0.0.1:8080"; port 0
// picks one: see Addr), holding at most MaxViewers and spareConns
// connections (access.Serve). A port in use is access.ErrInUse.
func Listen(addr string, o Options) (*Server, error) {
	ln, err := access.Listen(addr)
	if err != nil {
		return nil, fmt.Errorf("view: %w", err)
	}
	s := New(o)
	s.ln = ln
	s.http = access.Serve(ln, s.Handler(), access.Limits{Conns: s.opt.MaxViewers + spareConns, Source: access.Rules{Allow: s.opt.Allow}.Source}, "view", o.Log)
	return s, nil
}

// Addr is where the server listens (nil if it was made by New).
func (s *Server) Addr() net.Addr {
	if s.ln == nil {
		return nil
	}
	return s.ln.Addr()
}

// URL is the page's address for a browser on this machine.
func (s *Server) URL() string {
	a, ok := s.Addr().(*net.TCPAddr)
	if !ok {
		return ""
	}
	host := a.IP.String()
	if a.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, fmt.Sprint(a.Port)) + "/"
}

// Handler serves the page, its files and the stream at /ws, to allowed
// sources naming this server only (package access's rules, those of the
// OSC control port), and the stream to pages of its own origin only.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.gate.Let(w, r, access.Rules{Allow: s.opt.Allow}, s.Addr()) {
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		s.mux.ServeHTTP(w, r)
	})
}

// SetScene sets what browsers are shown; browsers already connected get
// it at once (a reload). Frames published for hands beyond sc.Hands are
// dropped.
func (s *Server) SetScene(sc Scene) error {
	if sc.Objects == nil {
		sc.Objects = []Mesh{} // the page reads a list, never null
	}
	b, err := json.Marshal(struct {
		Type string `json:"type"`
		Scene
		Duration float64 `json:"duration"`
	}{"scene", sc, s.timelineDuration()})
	if err != nil {
		return fmt.Errorf("view: scene: %w", err)
	}
	s.mu.Lock()
	s.scene = b
	s.sceneGen++
	for len(s.slots) < len(sc.Hands) {
		s.slots = append(s.slots, &slot{})
	}
	s.slots = s.slots[:len(sc.Hands)]
	s.mu.Unlock()
	s.wakeAll()
	return nil
}

// SetTimeline gives browsers a whole session to move through; call it
// before SetScene (whose message carries the timeline's length).
func (s *Server) SetTimeline(t *Timeline) {
	s.mu.Lock()
	s.timeline = t
	s.mu.Unlock()
}

func (s *Server) timelineDuration() float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.timeline == nil {
		return 0
	}
	return s.timeline.Duration().Seconds()
}

// Publish makes f hand's newest frame. It is the frame loop's part: a copy
// under a lock, no allocation once the slot's buffers have grown, and no
// I/O; browsers take the frame on their own goroutines.
func (s *Server) Publish(hand int, f *osc.Frame, info *Info) {
	sl := s.slot(hand)
	if sl == nil {
		return
	}
	sl.publish(f, info)
	s.wakeAll()
}

// PublishStatus sets hand's device status between frames (no glove,
// reconnecting, stalled) and the glove's sample rate as measured now: a
// glove that fell silent must not show the rate of its last frame.
func (s *Server) PublishStatus(hand int, status string, rate float64) {
	if sl := s.slot(hand); sl != nil {
		sl.setStatus(status, rate)
		s.wakeAll()
	}
}

func (s *Server) slot(hand int) *slot {
	s.mu.Lock()
	defer s.mu.Unlock()
	if hand < 0 || hand >= len(s.slots) {
		return nil
	}
	return s.slots[hand]
}

func (s *Server) wakeAll() {
	for _, b := range *s.browsers.Load() {
		select {
		case b.wake <- struct{}{}:
		default:
		}
	}
}

// Stats returns the server's counters.
func (s *Server) Stats() Stats {
	return Stats{Browsers: len(*s.browsers.Load()), Sent: s.sent.Load(), Skipped: s.skipped.Load(), Refused: s.gate.Refused(),
		TurnedAway: s.turnedAway.Load(), Dropped: s.dropped.Load()}
}

// Close stops serving and disconnects every browser.
func (s *Server) Close() error {
	s.cancel()
	if s.http != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if err := s.http.Shutdown(ctx); err != nil {
			return s.http.Close()
		}
	}
	return nil
}

// logf logs a line of kind, at most one a second: browsers by the
// hundred must not flood the log.
func (s *Server) logf(kind, msg string, kv ...any) {
	s.logs.Log(s.opt.Log, kind, time.Now(), msg, kv...)
}
