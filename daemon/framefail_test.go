package daemon

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/session"
)

// TestFailingFramesDegradeTheHandAndAreLoggedOnceASecond: a hand whose
// every sample the pipeline refuses reports degraded, not replay or
// streaming, while its samples keep coming, and logs one failure a
// second, the next line counting those held back, not one a sample (100
// lines a second, before).
func TestFailingFramesDegradeTheHandAndAreLoggedOnceASecond(t *testing.T) {
	var log lockedBuffer
	h := newHand(HandConfig{Name: "right"}, session.Spec{Device: session.DeviceReplay, Recording: "r.glove"}, &env.Mesh{},
		session.PipelineOptions{}, zerolog.New(&log), "/gloved", time.Second)
	h.wristSet = true // deliver takes no wrist from a session: there is none
	stop := make(chan struct{})
	refused := errors.New("handmodel: sample has 18 sensors, calibration c.toml is for 22")
	t0 := time.Now()
	var s devices.Sample
	for i := range 150 { // a second and a half of samples at 100 a second
		h.deliver(&s, nil, stop, false)
		h.frameFailed(refused, t0.Add(time.Duration(i)*10*time.Millisecond))
		if h.status != StatusDegraded {
			t.Fatalf("sample %d: status %s while every frame fails, want %s", i, h.status, StatusDegraded)
		}
	}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	var failed []string
	for _, l := range lines {
		if strings.Contains(l, "frame failed") {
			failed = append(failed, l)
		}
	}
	if len(failed) != 2 || !strings.Contains(failed[0], "is for 22") || !strings.Contains(failed[1], `"suppressed":99`) {
		t.Fatalf("logged %d failures in 1.5 s, want 2, the second counting the 99 held back:\n%s", len(failed), log.String())
	}
	h.failing.Store(false) // a frame went through (frames)
	h.deliver(&s, nil, stop, false)
	if h.status != StatusReplay {
		t.Errorf("status %s once a frame went through, want %s", h.status, StatusReplay)
	}
}
