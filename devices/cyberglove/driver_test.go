package cyberglove_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove"
	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/devices/emulator/emulatortest"
)

// The driver against the emulator on a real pseudo-terminal, for each
// model: every fault test runs against a CyberGlove I/II and a III.

var models = []cyberglove.Model{cyberglove.ModelII, cyberglove.ModelIII}

// forModels runs f as a subtest for each model.
func forModels(t *testing.T, f func(t *testing.T, m cyberglove.Model)) {
	for _, m := range models {
		t.Run(string(m), func(t *testing.T) { f(t, m) })
	}
}

// start serves an emulated unit of model m and opens the driver on it,
// streaming a record every period: an I/II is told the period by the
// driver (t), a III streams at its own rate, the emulator's.
func start(t *testing.T, m cyberglove.Model, o emulator.Opts, link string, h emulator.Hangup, period time.Duration, edit func(*cyberglove.Opts)) (*emulatortest.Emulated, *cyberglove.Glove) {
	t.Helper()
	o.Model, o.Period3 = m, period
	em := emulatortest.Start(t, o, link, h)
	g := em.Open(t, func(o *cyberglove.Opts) {
		o.Period = period
		if edit != nil {
			edit(o)
		}
	})
	return em, g
}

func TestDriverAgainstEmulatorOverPTY(t *testing.T) {
	for _, tc := range []struct {
		model   cyberglove.Model
		sensors int
		mode    cyberglove.Mode
	}{
		{cyberglove.ModelII, 22, cyberglove.Stream}, {cyberglove.ModelII, 18, cyberglove.Stream},
		{cyberglove.ModelII, 22, cyberglove.Poll}, {cyberglove.ModelII, 18, cyberglove.Poll},
		{cyberglove.ModelIII, 22, cyberglove.Stream}, {cyberglove.ModelIII, 18, cyberglove.Stream},
	} {
		em, g := start(t, tc.model, emulator.Opts{Sensors: tc.sensors, Right: true}, "", emulator.Hangup{}, 5*time.Millisecond,
			func(o *cyberglove.Opts) { o.Mode = tc.mode })
		// The I/II is set to the 5 ms period asked for; the III streams at 90 Hz.
		rate := map[cyberglove.Model]float64{cyberglove.ModelII: 200, cyberglove.ModelIII: 90}[tc.model]
		if info := g.GloveInfo(); info != (devices.GloveInfo{Model: string(tc.model), Sensors: tc.sensors, Right: true, Rate: rate}) {
			t.Errorf("%+v: info %+v", tc, info)
		}
		var got [][]uint16
		var s devices.Sample
		fine := false // a value that is not a multiple of 16: the low bits arrived
		timeouts := 0 // a loaded machine may starve the emulator past a deadline: the caller reads on
		for len(got) < 60 {
			if err := g.Read(&s); errors.Is(err, devices.ErrTimeout) && timeouts < 20 {
				timeouts++
				continue
			} else if err != nil {
				t.Fatalf("%+v: %v (after %d timeouts)", tc, err, timeouts)
			}
			if s.N != tc.sensors {
				t.Fatalf("sample with %d sensors", s.N)
			}
			if want := map[cyberglove.Model]uint8{cyberglove.ModelII: devices.Bits8, cyberglove.ModelIII: devices.Bits12}[tc.model]; s.Bits != want {
				t.Fatalf("%+v: sample of %d bits, want %d", tc, s.Bits, want)
			}
			for _, v := range s.Sensors() {
				fine = fine || v%16 != 0
			}
			got = append(got, slices.Clone(s.Sensors()))
		}
		g.Close()
		sent := em.Values()
		emulatortest.CheckSubsequence(t, got, sent)
		if tc.mode == cyberglove.Poll && !slices.EqualFunc(got, sent[:len(got)], slices.Equal) {
			t.Errorf("polling must return every record in order")
		}
		if tc.model == cyberglove.ModelIII && !fine {
			t.Errorf("%+v: every value a multiple of 16: the 12-bit resolution was lost", tc)
		}
		if f := g.Faults(); f.BadFrames != 0 || f.OutOfRange != 0 {
			t.Errorf("%+v: clean line counted faults: %+v", tc, f)
		}
	}
}

func TestDriverSurvivesGarbage(t *testing.T) {
	forModels(t, func(t *testing.T, m cyberglove.Model) {
		em, g := start(t, m, emulator.Opts{Sensors: 22, Right: true, Garbage: 0.15, Seed: 3}, "", emulator.Hangup{}, 3*time.Millisecond, nil)
		var got [][]uint16
		var s devices.Sample
		for len(got) < 400 {
			if err := g.Read(&s); err != nil {
				if devices.Transient(err) {
					continue
				}
				t.Fatal(err)
			}
			got = append(got, slices.Clone(s.Sensors()))
		}
		g.Close()
		emulatortest.CheckSubsequence(t, got, em.Values())
		f, st := g.Faults(), em.Emulator.Stats()
		if f.BadFrames == 0 || f.Resyncs == 0 || st.GarbageBursts == 0 {
			t.Errorf("garbage went unseen: faults %+v, emulator %+v", f, st)
		}
		if m == cyberglove.ModelIII && st.Fragments == 0 {
			t.Errorf("no fragments were sent: emulator %+v", st)
		}
		t.Logf("400 samples of %d sent, emulator %+v, faults %+v", len(em.Values()), st, f)
	})
}

func TestDriverReportsUnpluggedGlove(t *testing.T) {
	forModels(t, func(t *testing.T, m cyberglove.Model) {
		_, g := start(t, m, emulator.Opts{Sensors: 22, UnplugAt: 300 * time.Millisecond, UnplugFor: 300 * time.Millisecond}, "", emulator.Hangup{}, 10*time.Millisecond, nil)
		before, during, after, _ := emulatortest.Phases(t, g, devices.ErrNoGlove, 3*time.Second)
		if before == 0 || during == 0 || after < 20 || g.Faults().NoGlove == 0 {
			t.Fatalf("samples before %d, no-glove reports %d, samples after %d, faults %+v", before, during, after, g.Faults())
		}
	})
}

func TestDriverReconnectsAfterHangup(t *testing.T) {
	forModels(t, func(t *testing.T, m cyberglove.Model) {
		link := filepath.Join(t.TempDir(), "glove")
		em, g := start(t, m, emulator.Opts{Sensors: 18}, link, emulator.Hangup{At: 300 * time.Millisecond, For: 400 * time.Millisecond}, 10*time.Millisecond, nil)
		before, disconnected, after, got := emulatortest.Phases(t, g, devices.ErrDisconnected, 5*time.Second)
		f := g.Faults()
		if before == 0 || disconnected == 0 || after < 20 || f.Reconnects == 0 {
			t.Fatalf("before %d, disconnected reports %d, after %d, faults %+v", before, disconnected, after, f)
		}
		emulatortest.CheckSubsequence(t, got, em.Values())
	})
}

// TestDriverRestartsAStoppedStream: a unit that falls silent (its stream
// stopped, its commands lost) is reported by timeouts, asked again to
// stream, and read again when it answers.
func TestDriverRestartsAStoppedStream(t *testing.T) {
	forModels(t, func(t *testing.T, m cyberglove.Model) {
		_, g := start(t, m, emulator.Opts{Sensors: 22, SilentAt: 300 * time.Millisecond, SilentFor: 500 * time.Millisecond}, "", emulator.Hangup{}, 10*time.Millisecond, nil)
		before, timeouts, after, _ := emulatortest.Phases(t, g, devices.ErrTimeout, 4*time.Second)
		if before == 0 || timeouts < 3 || after < 20 || g.Faults().Timeouts == 0 {
			t.Fatalf("before %d, timeouts %d, after %d, faults %+v", before, timeouts, after, g.Faults())
		}
	})
}

func TestCloseUnblocksRead(t *testing.T) {
	forModels(t, func(t *testing.T, m cyberglove.Model) {
		// The unit falls silent once open: Read waits in vain when Close comes.
		_, g := start(t, m, emulator.Opts{Sensors: 22, SilentAt: 200 * time.Millisecond, SilentFor: time.Hour}, "", emulator.Hangup{}, 10*time.Millisecond, nil)
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
		time.Sleep(300 * time.Millisecond)
		g.Close()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			t.Fatal("Read did not return after Close")
		}
	})
}

// TestFaultsMayBeReadWhileStreaming: a metrics scrape reads the counters
// from another goroutine while the driver counts (run with -race), and
// sees them grow.
func TestFaultsMayBeReadWhileStreaming(t *testing.T) {
	forModels(t, func(t *testing.T, m cyberglove.Model) {
		_, g := start(t, m, emulator.Opts{Sensors: 22, Right: true, Garbage: 0.2, Seed: 5}, "", emulator.Hangup{}, 3*time.Millisecond, nil)
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
	})
}

// TestAUnitLeftWithItsTimestampOnStreamsOnceOpened: a unit keeps what the
// last program set; one whose timestamp another program turned on (d 1,
// or the D an OpenGloves driver's line holds) sends records 5 bytes
// longer, each refused: the driver turns it off, and its samples come.
func TestAUnitLeftWithItsTimestampOnStreamsOnceOpened(t *testing.T) {
	em := emulatortest.Start(t, emulator.Opts{Sensors: 22, Right: true}, "", emulator.Hangup{})
	other, err := os.OpenFile(em.Path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Write([]byte("d 1\r")); err != nil {
		t.Fatal(err)
	}
	reply := make([]byte, 2)
	other.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.ReadFull(other, reply); err != nil || string(reply) != "d\x00" {
		t.Fatalf("the other program's d 1: %q, %v", reply, err)
	}
	other.Close()
	g := em.Open(t, func(o *cyberglove.Opts) { o.Period = 5 * time.Millisecond })
	var s devices.Sample
	for n, timeouts := 0, 0; n < 20; n++ {
		if err := g.Read(&s); errors.Is(err, devices.ErrTimeout) && timeouts < 20 {
			timeouts++
			n--
			continue
		} else if err != nil {
			t.Fatalf("sample %d: %v (faults %+v)", n, err, g.Faults())
		}
	}
	if f := g.Faults(); f.BadFrames != 0 {
		t.Errorf("records refused: %+v", f)
	}
}
