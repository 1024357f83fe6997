package daemon

import (
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/session"
)

// TestAFlappingStatusIsLoggedOnceASecond: a hand whose status flaps (a
// tracker sending refused and accepted poses in turn flipped it between
// degraded and streaming, an INFO line each, 98 lines in 10 s) logs one
// status line a second; once it holds, the status it settled on is
// logged, counting the lines held back.
func TestAFlappingStatusIsLoggedOnceASecond(t *testing.T) {
	var log lockedBuffer
	h := newHand(HandConfig{Name: "left"}, session.Spec{Device: session.DeviceReplay, Recording: "r.glove"}, &env.Mesh{},
		session.PipelineOptions{}, zerolog.New(&log), "/gloved", time.Second)
	t0 := time.Now()
	for i := range 200 {
		if i%2 == 0 {
			h.setStatus(StatusDegraded)
		} else {
			h.setStatus(StatusStreaming)
		}
		h.statusDue(t0) // each change is due to be sent at once, not logged
	}
	h.setStatus(StatusDegraded) // where it settles
	if n := strings.Count(log.String(), `"hand status"`); n != 1 {
		t.Fatalf("%d status lines for 201 changes in a moment, want 1:\n%s", n, log.String())
	}
	if _, due, _ := h.statusDue(t0.Add(2 * time.Second)); !due {
		t.Fatal("the status is not due to be sent")
	}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	last := lines[len(lines)-1]
	if len(lines) != 2 || !strings.Contains(last, `"status":"degraded"`) || !strings.Contains(last, `"status_lines_held":200`) {
		t.Errorf("once the status holds, the log says:\n%s", log.String())
	}
	// Once said, nothing more is held or said.
	h.statusDue(t0.Add(5 * time.Second))
	if n := strings.Count(log.String(), `"hand status"`); n != 2 {
		t.Errorf("%d status lines after the status held", n)
	}
}
