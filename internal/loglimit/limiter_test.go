package loglimit

import (
	"fmt"
	"testing"
	"time"
)

// TestLimiter: one line of a kind per period, kinds apart; the line
// after a held-back run counts it; the zero value passes everything.
func TestLimiter(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var got []string
	log := func(msg string, kv ...any) { got = append(got, fmt.Sprint(msg, kv)) }
	l := &Limiter{Every: time.Second}
	for _, step := range []struct {
		kind string
		at   time.Duration
	}{
		{"a", 0}, {"a", 100 * time.Millisecond}, {"b", 200 * time.Millisecond}, {"a", 999 * time.Millisecond},
		{"a", time.Second}, {"a", 1500 * time.Millisecond}, {"b", 3 * time.Second},
	} {
		l.Log(log, step.kind, t0.Add(step.at), step.kind, "at", step.at)
	}
	want := []string{"a[at 0s]", "b[at 200ms]", "a[at 1s suppressed 2]", "b[at 3s]"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("logged %q, want %q", got, want)
	}
	var zero Limiter
	for k := range 3 {
		if ok, _ := zero.Allow("a", t0); !ok {
			t.Errorf("the zero Limiter held back line %d", k)
		}
	}
	l.Log(nil, "c", t0, "no logger: nothing happens")
}
