package replay

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/recording"
	"github.com/gloved/gloved/devices/recording/recordingtest"
)

// TestCloseEndsAWaitForASample: a real-time replay waiting out a 9 s gap
// between samples (a sound one: less than recording.MaxGap) returns
// ErrClosed as soon as Close is called, not when the wait is over.
func TestCloseEndsAWaitForASample(t *testing.T) {
	path, _ := recordingtest.Stamped(t, 0, 9*time.Second)
	r, err := Open(path, true)
	if err != nil {
		t.Fatal(err)
	}
	var s devices.Sample
	if err := r.Read(&s); err != nil {
		t.Fatal(err)
	}
	read := make(chan error, 1)
	go func() {
		var s devices.Sample
		read <- r.Read(&s)
	}()
	time.Sleep(50 * time.Millisecond) // most likely into the wait; Close ends it either way
	r.Close()
	select {
	case err := <-read:
		if !errors.Is(err, devices.ErrClosed) {
			t.Fatalf("Read after Close: %v, want ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Read still waits for the sample 5 s after Close")
	}
	if err := r.Read(&s); !errors.Is(err, devices.ErrClosed) {
		t.Fatalf("a Read after Close: %v, want ErrClosed", err)
	}
}

// TestReplayPlaysOnThroughAJump: a recording whose clock jumps (a 120 s
// gap, a record stamped 2^63-1 ns, one stamped before the one before it)
// replays in real time without waiting out the jump: every sample comes,
// each as far from the one before as recorded except across the jump,
// where none; Jump names the first jump's byte offset, once.
func TestReplayPlaysOnThroughAJump(t *testing.T) {
	const ms, maxT = time.Millisecond, time.Duration(1<<63 - 1)
	for _, tc := range []struct {
		name   string
		stamps []time.Duration
		times  []time.Duration // as replayed
		jump   int             // the first record that jumps
	}{
		{"a 120 s gap", []time.Duration{0, 10 * ms, 120*time.Second + 20*ms, 120*time.Second + 30*ms}, []time.Duration{0, 10 * ms, 10 * ms, 20 * ms}, 2},
		{"2^63-1 ns", []time.Duration{0, 10 * ms, maxT, 20 * ms}, []time.Duration{0, 10 * ms, 10 * ms, 10 * ms}, 2},
		{"backwards", []time.Duration{0, 10 * ms, 5 * ms, 15 * ms}, []time.Duration{0, 10 * ms, 10 * ms, 20 * ms}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path, offsets := recordingtest.Stamped(t, tc.stamps...)
			r, err := Open(path, true)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			read := make(chan []time.Duration, 1)
			var jumps []error
			go func() {
				var times []time.Duration
				var s devices.Sample
				for r.Read(&s) == nil {
					times = append(times, s.Time)
					if j := r.Jump(); j != nil {
						jumps = append(jumps, j)
					}
				}
				read <- times
			}()
			var times []time.Duration
			select {
			case times = <-read:
			case <-time.After(10 * time.Second):
				t.Fatal("the replay still waits 10 s on")
			}
			if fmt.Sprint(times) != fmt.Sprint(tc.times) {
				t.Errorf("samples at %v, want %v", times, tc.times)
			}
			if len(jumps) != 1 || !errors.Is(jumps[0], recording.ErrJump) || !strings.Contains(jumps[0].Error(), fmt.Sprintf("at byte %d ", offsets[tc.jump])) {
				t.Errorf("jumps told %v, want one naming byte %d", jumps, offsets[tc.jump])
			}
			if r.Warning() != nil {
				t.Errorf("warning %v: a jump is played through, it does not end the replay", r.Warning())
			}
		})
	}
}

// TestARealTimeReplayBeginsAtItsFirstRead: the pace counts from the
// first Read, not from Open: a replay first read 200 ms after it opened
// (a daemon opens its hands, then loads its scene) still gives its
// samples their recorded spacing, not a burst of those already due.
func TestARealTimeReplayBeginsAtItsFirstRead(t *testing.T) {
	const gap = 20 * time.Millisecond
	stamps := make([]time.Duration, 8)
	for i := range stamps {
		stamps[i] = time.Duration(i) * gap
	}
	path, _ := recordingtest.Stamped(t, stamps...)
	r, err := Open(path, true)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	time.Sleep(200 * time.Millisecond)
	var s devices.Sample
	if err := r.Read(&s); err != nil {
		t.Fatal(err)
	}
	first := time.Now()
	for i := 1; i < len(stamps); i++ {
		if err := r.Read(&s); err != nil {
			t.Fatal(err)
		}
		// A lower bound only: a loaded machine may come later.
		if d := time.Since(first); d < stamps[i]-time.Millisecond {
			t.Fatalf("sample %d came %v after the first, want %v: the replay's clock began before its first Read", i, d, stamps[i])
		}
	}
}
