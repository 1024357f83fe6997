package daemon

import (
	"bytes"
	"encoding/json"
	"regexp"
	"testing"
	"time"
)

// TestTheLogTimesItsLinesToTheMillisecond: JSON lines carry the time to
// the millisecond, and console lines show it (both said .000, or nothing
// below the second, before); console lines to a file have no colours.
func TestTheLogTimesItsLinesToTheMillisecond(t *testing.T) {
	var out bytes.Buffer
	log := NewLogger(&Config{Log: LogConfig{Level: "info", Format: "json"}}, &out)
	log.Info().Msg("x")
	var line struct{ Time string }
	if err := json.Unmarshal(out.Bytes(), &line); err != nil {
		t.Fatal(err)
	}
	at, err := time.Parse(LogTimeFormat, line.Time)
	if err != nil || !regexp.MustCompile(`T\d\d:\d\d:\d\d\.\d{3}`).MatchString(line.Time) || time.Since(at).Abs() > time.Minute {
		t.Errorf("JSON time %q (%v)", line.Time, err)
	}
	out.Reset()
	before := time.Now()
	log = NewLogger(&Config{Log: LogConfig{Level: "info", Format: "console"}}, &out)
	log.Info().Msg("x")
	shown, err := time.ParseInLocation("15:04:05.000", out.String()[:12], time.Local)
	if err != nil {
		t.Fatalf("console line %q: %v", out.String(), err)
	}
	// The line's time of day, to the millisecond, is the moment logged,
	// within a second (a loaded machine), around midnight too.
	if bytes.Contains(out.Bytes(), []byte("\x1b")) {
		t.Errorf("console line to a file holds escape codes: %q", out.String())
	}
	ofDay := func(h, m, s, ns int) time.Duration {
		return time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(s)*time.Second + time.Duration(ns)
	}
	want := ofDay(before.Hour(), before.Minute(), before.Second(), before.Nanosecond())
	got := ofDay(shown.Hour(), shown.Minute(), shown.Second(), shown.Nanosecond())
	d := got - want // within a second, modulo a day
	switch {
	case d > 12*time.Hour:
		d -= 24 * time.Hour
	case d < -12*time.Hour:
		d += 24 * time.Hour
	}
	if d.Abs() > time.Second {
		t.Errorf("console line %q, logged at %s", out.String(), before.Format("15:04:05.000"))
	}
}
