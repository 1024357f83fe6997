package access

import (
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/gloved/gloved/internal/loglimit"
)

// Gate stands before one of gloved's HTTP servers: it lets through the
// requests its rules allow and answers the others 403 with one line
// saying why, counting them and logging them, at most one line a second
// (a flood of refused requests must not flood the log).
type Gate struct {
	// Server names the server in answers and log lines ("view").
	Server string
	// Log, if set, hears the refusals.
	Log func(msg string, kv ...any)

	refused atomic.Uint64
	logs    loglimit.Limiter
}

// NewGate makes the gate of the server named.
func NewGate(server string, log func(msg string, kv ...any)) *Gate {
	return &Gate{Server: server, Log: log, logs: loglimit.Limiter{Every: time.Second}}
}

// Let reports whether r may be served under ru (listen is where the
// server listens, as for Rules.Refuse); if not, it has answered it.
func (g *Gate) Let(w http.ResponseWriter, r *http.Request, ru Rules, listen net.Addr) bool {
	why := ru.Refuse(r, listen)
	if why == "" {
		return true
	}
	g.refused.Add(1)
	g.logs.Log(g.Log, "refused", time.Now(), g.Server+": request refused", "remote", r.RemoteAddr, "host", r.Host, "origin", r.Header.Get("Origin"), "why", why)
	http.Error(w, "gloved "+g.Server+": "+why, http.StatusForbidden)
	return false
}

// Refused counts the requests refused.
func (g *Gate) Refused() uint64 { return g.refused.Load() }
