package access

import (
	"cmp"
	"errors"
	"log"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/gloved/gloved/internal/loglimit"
)

// What one client may cost a server. Requests to gloved's servers carry
// no body and their answers are small (the page's script, 675 KB, is
// the largest), so each bound is generous for a client and short for a
// connection left open on purpose (slowloris).
const (
	// ReadHeaderTimeout bounds the wait for a request's head, the first
	// or the next on a kept connection.
	ReadHeaderTimeout = 5 * time.Second
	// ReadTimeout bounds reading a whole request.
	ReadTimeout = 10 * time.Second
	// WriteTimeout bounds writing an answer. A connection taken over
	// (a WebSocket: net/http lifts its deadlines then) bounds each
	// message itself.
	WriteTimeout = 30 * time.Second
	// IdleTimeout closes a kept connection that sends no next request.
	IdleTimeout = 30 * time.Second
	// MaxHeaderBytes bounds a request's head.
	MaxHeaderBytes = 16 << 10
)

// Limits are what a server spends on its clients.
type Limits struct {
	// Conns caps the connections held at once, streams among them.
	Conns int
	// The timeouts; 0 is the default above.
	ReadHeader, Read, Write, Idle time.Duration
	// Source says which sources the server serves (Rules.Source): a
	// connection from any other takes only a free place, never evicting
	// another's. Nil: every source is treated alike.
	Source func(netip.Addr) bool
}

// Server is one of gloved's HTTP servers.
type Server struct {
	*http.Server
	conns *capped
}

// Serve serves h on ln, holding at most lim.Conns connections at once
// (see Server.Stats), with lim's timeouts and the header bound above.
// What net/http has to say (an accept error, a client's broken request)
// goes to logf, the server's name first, at most one line of a kind a
// second: a flood must not flood the log. Close or Shutdown the Server
// to stop.
func Serve(ln net.Listener, h http.Handler, lim Limits, name string, logf func(msg string, kv ...any)) *Server {
	s := &Server{conns: newCapped(ln, lim.Conns, lim.Source)}
	s.Server = &http.Server{
		Handler:           bodiless(h),
		ReadHeaderTimeout: cmp.Or(lim.ReadHeader, ReadHeaderTimeout),
		ReadTimeout:       cmp.Or(lim.Read, ReadTimeout),
		WriteTimeout:      cmp.Or(lim.Write, WriteTimeout),
		IdleTimeout:       cmp.Or(lim.Idle, IdleTimeout),
		MaxHeaderBytes:    MaxHeaderBytes,
		ConnState:         s.conns.track,
		ErrorLog:          log.New(&errorLog{name: name, log: logf, limit: loglimit.Limiter{Every: time.Second}}, "", 0),
	}
	go func() {
		if err := s.Server.Serve(s.conns); !errors.Is(err, http.ErrServerClosed) {
			s.ErrorLog.Printf("stopped serving: %v", err)
		}
	}()
	return s
}

// ConnStats count a server's connections.
type ConnStats struct {
	// Held is how many it holds now; Evicted how many it closed for a
	// new one, having waited longest for a request; Refused how many it
	// closed at once, every place being busy.
	Held             int
	Evicted, Refused uint64
}

// Stats returns the server's connection counts.
func (s *Server) Stats() ConnStats {
	return ConnStats{Held: s.conns.held(), Evicted: s.conns.evicted.Load(), Refused: s.conns.refused.Load()}
}

// errorLog is net/http's ErrorLog: its lines, a line of a kind a second.
type errorLog struct {
	name  string
	log   func(msg string, kv ...any)
	limit loglimit.Limiter
}

func (e *errorLog) Write(p []byte) (int, error) {
	line := strings.TrimSpace(string(p))
	// The kind is the line up to its first number or colon after
	// "http: ": "http: Accept error" of "http: Accept error: accept tcp
	// ...: too many open files; retrying in 5ms", "http: TLS handshake
	// error from " whatever the client's address.
	kind := line
	if i := strings.Index(line, ": "); i >= 0 {
		if j := strings.IndexAny(line[i+2:], ":[0123456789"); j >= 0 {
			kind = line[:i+2+j]
		}
	}
	e.limit.Log(e.log, kind, time.Now(), e.name+": "+line)
	return len(p), nil
}

// bodiless refuses, at once, a request that carries a body: none of
// gloved's servers reads one, and net/http, answering, would go on to
// read a body it was not given whole (up to 256 KB, until the request's
// timeout), holding a busy place a slow sender keeps trickling into.
func bodiless(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength != 0 { // -1: chunked, of unknown length
			w.Header().Set("Connection", "close")
			http.Error(w, "gloved: requests here carry no body", http.StatusRequestEntityTooLarge)
			// Nothing more is read: the connection closes with the answer.
			http.NewResponseController(w).SetReadDeadline(time.Now())
			return
		}
		h.ServeHTTP(w, r)
	})
}
