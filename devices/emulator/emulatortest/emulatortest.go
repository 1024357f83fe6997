package emulatortest

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove"
	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/devices/sim"
)

// Emulated is an emulator served on a pseudo-terminal until the test ends.
type Emulated struct {
	// Path is the port a driver opens: the pty, or the link if one was given.
	Path     string
	Emulator *emulator.Emulator
	model    cyberglove.Model
	mu       sync.Mutex
	sent     [][]uint16
}

// Start serves an emulator with options o (source: the simulated grasp if
// none) on a pty, linked at link if it is not empty, with the hangup h,
// and returns once the port is ready. The emulator stops when tb ends.
func Start(tb testing.TB, o emulator.Opts, link string, h emulator.Hangup) *Emulated {
	tb.Helper()
	em := &Emulated{model: o.Model}
	next := o.OnRecord
	o.OnRecord = func(raw []uint16) {
		em.mu.Lock()
		em.sent = append(em.sent, slices.Clone(raw))
		em.mu.Unlock()
		if next != nil {
			next(raw)
		}
	}
	if o.Source == nil {
		o.Source = func(t time.Duration, s *[layout.Slots]uint16) { sim.Raw(sim.Grasp, t, s) }
	}
	e, err := emulator.New(o)
	if err != nil {
		tb.Fatal(err)
	}
	em.Emulator = e
	em.Path = serve(tb, e, link, h)
	return em
}

// StartOpenGloves serves an emulated OpenGloves glove with options o
// (source: the simulated grasp if none) on a pty, linked at link if it
// is not empty, with the hangup h, and returns the port a driver opens
// once it is ready. The emulator stops when tb ends.
func StartOpenGloves(tb testing.TB, o emulator.OpenGlovesOpts, link string, h emulator.Hangup) (string, *emulator.OpenGloves) {
	tb.Helper()
	if o.Source == nil {
		o.Source = func(t time.Duration, s *[layout.Slots]uint16) { sim.Raw(sim.Grasp, t, s) }
	}
	e, err := emulator.NewOpenGloves(o)
	if err != nil {
		tb.Fatal(err)
	}
	return serve(tb, e, link, h), e
}

// serve runs e on a pty until tb ends and returns its port (the link,
// if one was given) once it is ready.
func serve(tb testing.TB, e emulator.Unit, link string, h emulator.Hangup) string {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 4)
	done := make(chan error, 1)
	go func() { done <- emulator.Run(ctx, e, link, h, func(p string) { ready <- p }) }()
	tb.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			tb.Errorf("emulator: %v", err)
		}
	})
	var path string
	select {
	case path = <-ready:
	case err := <-done:
		tb.Fatalf("emulator: %v", err)
	}
	if link != "" {
		path = link
	}
	return path
}

// Records returns the sensor bytes of every record sent so far, in order
// (8-bit records: a CyberGlove I/II's).
func (em *Emulated) Records() [][]byte {
	em.mu.Lock()
	defer em.mu.Unlock()
	b := make([][]byte, len(em.sent))
	for i, v := range em.sent {
		b[i] = Bytes(v)
	}
	return b
}

// Values returns the sensor values of every record sent so far, in order,
// whatever their resolution.
func (em *Emulated) Values() [][]uint16 {
	em.mu.Lock()
	defer em.mu.Unlock()
	return slices.Clone(em.sent)
}

// Open connects the driver to the emulator with the default options for
// the emulated model, as changed by edit (if any); the glove is closed
// when the test ends. A reply may take up to 5 s unless edit says
// otherwise: the emulator is a goroutine, which a loaded machine (the
// whole suite on two cores) can keep from answering for longer than a
// real unit's 500 ms.
func (em *Emulated) Open(tb testing.TB, edit func(*cyberglove.Opts)) *cyberglove.Glove {
	tb.Helper()
	o := cyberglove.DefaultOpts
	o.Port, o.ReplyTimeout = em.Path, 5*time.Second
	if em.model != "" {
		o.Model = em.model
	}
	if edit != nil {
		edit(&o)
	}
	g, err := cyberglove.Open(o)
	if err != nil {
		tb.Fatalf("opening %s: %v", em.Path, err)
	}
	tb.Cleanup(func() { g.Close() })
	return g
}

// Bytes returns 8-bit sensor values as bytes, the form records carry.
func Bytes(v []uint16) []byte {
	b := make([]byte, len(v))
	for i, x := range v {
		b[i] = byte(x)
	}
	return b
}

// CheckSubsequence fails the test unless every record in got was sent, in
// the order sent.
func CheckSubsequence[S ~[]E, E comparable](tb testing.TB, got, sent []S) {
	tb.Helper()
	k := 0
	for i, g := range got {
		for k < len(sent) && !slices.Equal(sent[k], g) {
			k++
		}
		if k == len(sent) {
			tb.Fatalf("sample %d %v was never sent (or came out of order)", i, g)
		}
		k++
	}
}

// Phases reads g until 20 samples have come after reports of fault (an
// error that is fault), or for at most d: it returns the samples before
// the first report, the reports, the samples after, and every sample
// read. An error that is not transient fails the test.
func Phases(t *testing.T, g devices.Device, fault error, d time.Duration) (before, reports, after int, got [][]uint16) {
	t.Helper()
	var s devices.Sample
	for deadline := time.Now().Add(d); after < 20 && time.Now().Before(deadline); {
		err := g.Read(&s)
		switch {
		case errors.Is(err, fault):
			reports++
		case err == nil && reports == 0:
			before++
		case err == nil:
			after++
		case !devices.Transient(err):
			t.Fatal(err)
		}
		if err == nil {
			got = append(got, slices.Clone(s.Sensors()))
		}
	}
	return before, reports, after, got
}
