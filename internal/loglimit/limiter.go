package loglimit

import (
	"sync"
	"time"
)

// Limiter passes one log line of a kind each Every and counts the rest;
// the next line of the kind that goes out says how many were held back.
// Its zero value passes every line; it is safe for concurrent use.
type Limiter struct {
	Every time.Duration

	mu   sync.Mutex
	last map[string]time.Time
	held map[string]int
}

// Allow reports whether a line of kind may go out at now, and how many
// lines of that kind were held back since the last that went out.
func (l *Limiter) Allow(kind string, now time.Time) (ok bool, held int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.last == nil {
		l.last, l.held = map[string]time.Time{}, map[string]int{}
	}
	if t, seen := l.last[kind]; seen && now.Sub(t) < l.Every {
		l.held[kind]++
		return false, 0
	}
	held = l.held[kind]
	l.last[kind], l.held[kind] = now, 0
	return true, held
}

// Log passes msg and kv to log (if log is set) unless a line of kind went
// out less than Every before now; a line that goes out after some were
// held back carries "suppressed" and their count.
func (l *Limiter) Log(log func(msg string, kv ...any), kind string, now time.Time, msg string, kv ...any) {
	if log == nil {
		return
	}
	ok, held := l.Allow(kind, now)
	if !ok {
		return
	}
	if held > 0 {
		kv = append(kv, "suppressed", held)
	}
	log(msg, kv...)
}
