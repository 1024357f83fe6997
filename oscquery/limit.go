package oscquery

import (
	"sync"
	"time"
)

// logLimit passes one log line of a kind a second and counts the rest, so
// that a flood of bad requests cannot flood the log.
type logLimit struct {
	mu         sync.Mutex
	last       map[string]time.Time
	suppressed map[string]int
}

// allow reports whether a line of kind may be logged at now, and how many
// of that kind were held back since the last one.
func (l *logLimit) allow(kind string, now time.Time) (bool, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.last == nil {
		l.last, l.suppressed = map[string]time.Time{}, map[string]int{}
	}
	if t, ok := l.last[kind]; ok && now.Sub(t) < time.Second {
		l.suppressed[kind]++
		return false, 0
	}
	n := l.suppressed[kind]
	l.last[kind], l.suppressed[kind] = now, 0
	return true, n
}
