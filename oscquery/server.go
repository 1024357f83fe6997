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
	"github.com/gloved/gloved/mdns"
)

// Options configure a Server.
type Options struct {
	// Allow lists the sources besides loopback that may read the tree
	// (the config's osc.allow).
	Allow []netip.Prefix
	// Log, if set, hears refused requests, at most one line a second.
	Log func(msg string, kv ...any)
}

// maxConns caps the connections the server holds (access.Serve): an
// OSCQuery client asks a few times and goes.
const maxConns = 64

// Stats count what the server answered.
type Stats struct {
	Requests, Refused, NotFound, BadRequests uint64
}

// Server answers OSCQuery requests over HTTP: the address tree, any node
// of it, one attribute of a node, and HOST_INFO.
type Server struct {
	opt  Options
	http *access.Server
	ln   net.Listener
	gate *access.Gate

	mu   sync.RWMutex
	tree *Tree
	name string
	// host is the mDNS host name of the tree's service, which a client
	// that resolved it may send as Host.
	host string
	osc  netip.AddrPort

	requests, notFound, bad atomic.Uint64
}

// New makes a server that is not listening: serve its Handler.
func New(o Options) *Server {
	return &Server{opt: o, gate: access.NewGate("oscquery", o.Log)}
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
	s.http = access.Serve(ln, s.Handler(), access.Limits{Conns: maxConns, Source: access.Rules{Allow: o.Allow}.Source}, "oscquery", o.Log)
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
// arrived on. The name's mDNS host name (mdns.HostName) is one the
// server answers to.
func (s *Server) SetHost(name string, oscAddr netip.AddrPort) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.name, s.osc, s.host = name, oscAddr, mdns.HostName(name, TypeJSON)
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
	return Stats{Requests: s.requests.Load(), Refused: s.gate.Refused(), NotFound: s.notFound.Load(), BadRequests: s.bad.Load()}
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
		s.mu.RLock()
		rules := access.Rules{Allow: s.opt.Allow, Names: []string{s.host}}
		s.mu.RUnlock()
		if !s.gate.Let(w, r, rules, s.Addr()) {
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
