package oscquery

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gloved/gloved/access"
	"github.com/gloved/gloved/internal/loglimit"
)

// Options configure a Server.
type Options struct {
	// Allow lists the sources besides loopback that may read the tree
	// (the config's osc.allow).
	Allow []netip.Prefix
	// Log, if set, hears refused requests, at most one line a second.
	Log func(msg string, kv ...any)
}

// Stats count what the server answered.
type Stats struct {
	Requests, Refused, NotFound, BadRequests uint64
}

// Server answers OSCQuery requests over HTTP: the address tree, any node
// of it, one attribute of a node, and HOST_INFO.
type Server struct {
	opt  Options
	http *http.Server
	ln   net.Listener
	now  func() time.Time
	logs loglimit.Limiter

	mu   sync.RWMutex
	tree *Tree
	name string
	osc  netip.AddrPort

	requests, refused, notFound, bad atomic.Uint64
}

// New makes a server that is not listening: serve its Handler.
func New(o Options) *Server {
	return &Server{opt: o, now: time.Now, logs: loglimit.Limiter{Every: time.Second}}
}

// ListenHTTP makes a server and serves it on addr ("127.0.0.1:0" picks a
// port: see Addr). A port in use is access.ErrInUse.
func ListenHTTP(addr string, o Options) (*Server, error) {
	ln, err := access.Listen(addr)
	if err != nil {
		return nil, fmt.Errorf("oscquery: %w", err)
	}
	s := New(o)
	s.ln = ln
	s.http = &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 5 * time.Second, IdleTimeout: time.Minute, MaxHeaderBytes: 16 << 10}
	go s.http.Serve(ln)
	return s, nil
}

// SetTree sets the address space the server answers with (a reload
// replaces it); until one is set every path is 404.
func (s *Server) SetTree(t *Tree) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tree = t
}

// SetHost sets HOST_INFO's NAME (the advertised instance name) and the
// OSC server's address (where gloved accepts OSC: osc.listen). An
// unspecified address (0.0.0.0) is answered with the address the request
// arrived on.
func (s *Server) SetHost(name string, oscAddr netip.AddrPort) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.name, s.osc = name, oscAddr
}

// Addr is where the server listens (nil if it was made by New).
func (s *Server) Addr() net.Addr {
	if s.ln == nil {
		return nil
	}
	return s.ln.Addr()
}

// AddrPort is Addr as a netip.AddrPort (the zero value if not listening).
func (s *Server) AddrPort() netip.AddrPort {
	if a, ok := s.Addr().(*net.TCPAddr); ok {
		return a.AddrPort()
	}
	return netip.AddrPort{}
}

// URL is the tree's address for a client on this machine.
func (s *Server) URL() string {
	ap := s.AddrPort()
	if !ap.IsValid() {
		return ""
	}
	host := ap.Addr().Unmap()
	if host.IsUnspecified() {
		host = netip.AddrFrom4([4]byte{127, 0, 0, 1})
	}
	return "http://" + netip.AddrPortFrom(host, ap.Port()).String() + "/"
}

// Stats returns the server's counters.
func (s *Server) Stats() Stats {
	return Stats{Requests: s.requests.Load(), Refused: s.refused.Load(), NotFound: s.notFound.Load(), BadRequests: s.bad.Load()}
}

// Close stops serving.
func (s *Server) Close() error {
	if s.http == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := s.http.Shutdown(ctx); err != nil {
		return s.http.Close()
	}
	return nil
}

// Handler answers OSCQuery requests from allowed sources: GET (or HEAD)
// of a path is its node and everything under it; ?ATTR is one attribute
// of it ({} where it has none; 204 for one gloved does not serve, VALUE
// among them; 400 for a name that is not an attribute); ?HOST_INFO is the
// host's information, whatever the path. An address with no node is 404.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		var local net.Addr
		if s.ln != nil {
			local = s.ln.Addr()
		}
		if why := (access.Rules{Allow: s.opt.Allow}).Refuse(r, local); why != "" {
			s.refused.Add(1)
			s.logf("refused", "oscquery: request refused", "remote", r.RemoteAddr, "host", r.Host, "why", why)
			http.Error(w, "gloved oscquery: "+why, http.StatusForbidden)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			s.bad.Add(1)
			http.Error(w, "gloved oscquery: GET only", http.StatusMethodNotAllowed)
			return
		}
		s.serve(w, r)
	})
}

// serve answers an allowed GET.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	path, query := r.URL.Path, r.URL.RawQuery
	// A fragment is the client's own: the proposal has the server strip
	// one that a client sends anyway.
	if i := strings.IndexByte(path, '#'); i >= 0 {
		path, query = path[:i], ""
	} else if i := strings.IndexByte(query, '#'); i >= 0 {
		query = query[:i]
	}
	attr, err := ParseQuery(query)
	if err != nil {
		s.bad.Add(1)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if attr == "HOST_INFO" {
		writeJSON(w, s.hostInfo(r))
		return
	}
	s.mu.RLock()
	t := s.tree
	s.mu.RUnlock()
	if path == "" {
		path = "/"
	}
	var n *Node
	if t != nil {
		n = t.Node(path)
	}
	if n == nil {
		s.notFound.Add(1)
		http.Error(w, fmt.Sprintf("gloved oscquery: no container or method at %q", path), http.StatusNotFound)
		return
	}
	switch {
	case attr == "":
		w.Header().Set("Content-Type", "application/json")
		w.Write(t.JSON(path))
	case attributes[attr] == served:
		writeJSON(w, attribute(n, attr))
	case attributes[attr] == unsupported:
		w.WriteHeader(http.StatusNoContent)
	default:
		s.bad.Add(1)
		http.Error(w, fmt.Sprintf("gloved oscquery: %s is not an OSCQuery attribute", attr), http.StatusBadRequest)
	}
}

// hostInfo is HOST_INFO for a request r.
func (s *Server) hostInfo(r *http.Request) HostInfo {
	s.mu.RLock()
	name, ap := s.name, s.osc
	s.mu.RUnlock()
	h := HostInfo{Name: name, Extensions: Extensions()}
	if !ap.IsValid() {
		return h
	}
	ip := ap.Addr().Unmap()
	if ip.IsUnspecified() {
		if a, ok := r.Context().Value(http.LocalAddrContextKey).(*net.TCPAddr); ok {
			ip = a.AddrPort().Addr().Unmap()
		}
	}
	if !ip.IsUnspecified() {
		h.OSCIP = ip.WithZone("").String()
	}
	h.OSCPort, h.OSCTransport = int(ap.Port()), "UDP"
	return h
}

// writeJSON answers v as JSON.
func writeJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "gloved oscquery: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

// logf logs a line of kind, at most one a second: a flood of bad
// requests must not flood the log.
func (s *Server) logf(kind, msg string, kv ...any) {
	s.logs.Log(s.opt.Log, kind, s.now(), msg, kv...)
}
