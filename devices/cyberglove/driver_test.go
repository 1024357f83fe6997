package cyberglove_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove"
	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/devices/emulator/emulatortest"
)

// The driver against the emulator on a real pseudo-terminal.

func TestDriverAgainstEmulatorOverPTY(t *testing.T) {
	for _, tc := range []struct {
		sensors int
		mode    cyberglove.Mode
	}{{22, cyberglove.Stream}, {18, cyberglove.Stream}, {22, cyberglove.Poll}, {18, cyberglove.Poll}} {
		em := emulatortest.Start(t, emulator.Opts{Sensors: tc.sensors, Right: true}, "", emulator.Hangup{})
		g := em.Open(t, func(o *cyberglove.Opts) { o.Mode, o.Period = tc.mode, 5*time.Millisecond })
		var got [][]byte
		var s devices.Sample
		for len(got) < 60 {
			if err := g.Read(&s); err != nil {
				t.Fatalf("%d sensors mode %d: %v", tc.sensors, tc.mode, err)
			}
			if s.N != tc.sensors {
				t.Fatalf("sample with %d sensors", s.N)
			}
			got = append(got, emulatortest.Bytes(s.Sensors()))
		}
		g.Close()
		sent := em.Records()
		emulatortest.CheckSubsequence(t, got, sent)
		if tc.mode == cyberglove.Poll && !slices.EqualFunc(got, sent[:len(got)], bytes.Equal) {
			t.Errorf("polling must return every record in order")
		}
		if f := g.Faults(); f.BadFrames != 0 {
			t.Errorf("clean line counted faults: %+v", f)
		}
	}
}

func TestDriverSurvivesGarbage(t *testing.T) {
	em := emulatortest.Start(t, emulator.Opts{Sensors: 22, Right: true, Garbage: 0.15, Seed: 3}, "", emulator.Hangup{})
	g := em.Open(t, func(o *cyberglove.Opts) { o.Period = 3 * time.Millisecond })
	var got [][]byte
	var s devices.Sample
	for len(got) < 400 {
		if err := g.Read(&s); err != nil {
			if devices.Transient(err) {
				continue
			}
			t.Fatal(err)
		}
		got = append(got, emulatortest.Bytes(s.Sensors()))
	}
	g.Close()
	emulatortest.CheckSubsequence(t, got, em.Records())
	f := g.Faults()
	if f.BadFrames == 0 || f.Resyncs == 0 || em.Emulator.Stats().GarbageBursts == 0 {
		t.Errorf("garbage went unseen: faults %+v, emulator %+v", f, em.Emulator.Stats())
	}
	t.Logf("400 samples of %d sent, %d garbage bursts, faults %+v", len(em.Records()), em.Emulator.Stats().GarbageBursts, f)
}

func TestDriverReportsUnpluggedGlove(t *testing.T) {
	em := emulatortest.Start(t, emulator.Opts{Sensors: 22, UnplugAt: 300 * time.Millisecond, UnplugFor: 300 * time.Millisecond}, "", emulator.Hangup{})
	g := em.Open(t, nil)
	var before, during, after int
	var s devices.Sample
	deadline := time.Now().Add(3 * time.Second)
	for after < 20 && time.Now().Before(deadline) {
		err := g.Read(&s)
		switch {
		case errors.Is(err, devices.ErrNoGlove):
			during++
		case err == nil && during == 0:
			before++
		case err == nil:
			after++
		case !devices.Transient(err):
			t.Fatal(err)
		}
	}
	if before == 0 || during == 0 || after < 20 || g.Faults().NoGlove == 0 {
		t.Fatalf("samples before %d, no-glove reports %d, samples after %d, faults %+v", before, during, after, g.Faults())
	}
}

func TestDriverReconnectsAfterHangup(t *testing.T) {
	link := filepath.Join(t.TempDir(), "glove")
	em := emulatortest.Start(t, emulator.Opts{Sensors: 18}, link, emulator.Hangup{At: 300 * time.Millisecond, For: 400 * time.Millisecond})
	g := em.Open(t, nil)
	var before, disconnected, after int
	var s devices.Sample
	var got [][]byte
	deadline := time.Now().Add(5 * time.Second)
	for after < 20 && time.Now().Before(deadline) {
		err := g.Read(&s)
		switch {
		case errors.Is(err, devices.ErrDisconnected):
			disconnected++
		case err == nil && disconnected == 0:
			before++
			got = append(got, emulatortest.Bytes(s.Sensors()))
		case err == nil:
			after++
			got = append(got, emulatortest.Bytes(s.Sensors()))
		case !devices.Transient(err):
			t.Fatal(err)
		}
	}
	f := g.Faults()
	if before == 0 || disconnected == 0 || after < 20 || f.Reconnects == 0 {
		t.Fatalf("before %d, disconnected reports %d, after %d, faults %+v", before, disconnected, after, f)
	}
	emulatortest.CheckSubsequence(t, got, em.Records())
}

func TestCloseUnblocksRead(t *testing.T) {
	em := emulatortest.Start(t, emulator.Opts{Sensors: 22}, "", emulator.Hangup{})
	g := em.Open(t, func(o *cyberglove.Opts) { o.Mode = cyberglove.Poll })
	done := make(chan error)
	go func() {
		var s devices.Sample
		for {
			if err := g.Read(&s); errors.Is(err, devices.ErrClosed) {
				done <- err
				return
			}
		}
	}()
	time.Sleep(50 * time.Millisecond)
	g.Close()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("Read did not return after Close")
	}
}

// TestFaultsMayBeReadWhileStreaming: a metrics scrape reads the counters
// from another goroutine while the driver counts (run with -race), and
// sees them grow.
func TestFaultsMayBeReadWhileStreaming(t *testing.T) {
	em := emulatortest.Start(t, emulator.Opts{Sensors: 22, Right: true, Garbage: 0.2, Seed: 5}, "", emulator.Hangup{})
	g := em.Open(t, func(o *cyberglove.Opts) { o.Period = 3 * time.Millisecond })
	stop := make(chan struct{})
	scraped := make(chan devices.Faults)
	go func() {
		var last devices.Faults
		for {
			select {
			case <-stop:
				scraped <- last
				return
			default:
				last = g.Faults()
			}
		}
	}()
	var s devices.Sample
	for n := 0; n < 150; {
		if err := g.Read(&s); err == nil {
			n++
		} else if !devices.Transient(err) {
			t.Fatal(err)
		}
	}
	close(stop)
	if f := <-scraped; f.BadFrames == 0 {
		t.Errorf("the scrape never saw a bad frame under 20%% garbage: %+v", f)
	}
}
