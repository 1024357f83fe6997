package devices

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// scriptPort is a byte-exact conversation, periph conntest style: each step
// is what the driver must write and what the unit answers.
type scriptPort struct {
	t       *testing.T
	mu      sync.Mutex
	steps   []step
	written []byte
	unread  []byte
	closed  bool
}

type step struct{ want, reply string }

func (p *scriptPort) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.written = append(p.written, b...)
	for len(p.steps) > 0 && bytes.HasPrefix(p.written, []byte(p.steps[0].want)) {
		p.written = p.written[len(p.steps[0].want):]
		p.unread = append(p.unread, p.steps[0].reply...)
		p.steps = p.steps[1:]
	}
	if len(p.steps) > 0 && !bytes.HasPrefix([]byte(p.steps[0].want), p.written) {
		p.t.Errorf("driver wrote %q, script expects %q", p.written, p.steps[0].want)
	}
	return len(b), nil
}

func (p *scriptPort) Read(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return 0, errors.New("closed")
	}
	if len(p.unread) == 0 {
		p.mu.Unlock()
		time.Sleep(time.Millisecond)
		p.mu.Lock()
		return 0, io.EOF
	}
	n := copy(b, p.unread)
	p.unread = p.unread[n:]
	return n, nil
}

func (p *scriptPort) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	return nil
}

func testOpts(port Port) CyberGloveOpts {
	o := DefaultCyberGloveOpts
	o.Port = "scripted"
	o.Open = func(string, int, time.Duration) (Port, error) { return port, nil }
	return o
}

func TestOpenSequenceIsByteExact(t *testing.T) {
	f := Format{Sensors: 22, Status: true}
	r1, r2 := seqRaw(22, 5), seqRaw(22, 50)
	stream := string(record('S', f, r1, 0, 3)) + string(record('S', f, r2, 0, 1)) + "S"
	port := &scriptPort{t: t, steps: []step{
		{"\x03", "S\x01\x02"}, // a stale stream tail, drained
		{"?S", "?S\x16\x00"},
		{"?G", "?G\x03\x00"},
		{"?R", "?R\x01\x00"},
		{"t 1152 1\r", "t\x00"},
		{"u 1\r", "u\x00"},
		{"S", stream},
	}}
	g, err := OpenCyberGlove(testOpts(port))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if info := g.GloveInfo(); info != (GloveInfo{Model: "cyberglove", Sensors: 22, Right: true}) {
		t.Errorf("info %+v", info)
	}
	var s Sample
	for i, want := range [][]byte{r1, r2} {
		if err := g.Read(&s); err != nil {
			t.Fatal(err)
		}
		if s.Seq != uint64(i) || !slices.Equal(toBytes(s.Sensors()), want) || s.Status&StatusGloveIn == 0 {
			t.Fatalf("sample %d: %+v", i, s)
		}
	}
	if len(port.steps) != 0 {
		t.Fatalf("script not finished: %+v", port.steps)
	}
}

func toBytes(v []uint16) []byte {
	b := make([]byte, len(v))
	for i, x := range v {
		b[i] = byte(x)
	}
	return b
}

func TestOpenFailsClearly(t *testing.T) {
	tests := []struct {
		name  string
		steps []step
		opt   func(*CyberGloveOpts)
		says  string
	}{
		{"silent port", []step{{"\x03", ""}}, nil, "no reply within"},
		{"wrong count", []step{{"\x03", ""}, {"?S", "?S\x14\x00"}}, nil, "?S: devices: 20 sensors"},
		{"configured count differs", []step{{"\x03", ""}, {"?S", "?S\x12\x00"}}, func(o *CyberGloveOpts) { o.Sensors = 22 }, "unit reports 18 sensors, configured for 22"},
		{"period refused", []step{{"\x03", ""}, {"?S", "?S\x16\x00"}, {"?G", "?G\x03\x00"}, {"?R", "?R\x00\x00"}, {"t 1152 1\r", "te\x6e\x00"}}, nil, `unit answered error 'n'`},
	}
	for _, tc := range tests {
		port := &scriptPort{t: t, steps: tc.steps}
		o := testOpts(port)
		o.ReplyTimeout = 50 * time.Millisecond
		if tc.opt != nil {
			tc.opt(&o)
		}
		_, err := OpenCyberGlove(o)
		if err == nil || !bytes.Contains([]byte(err.Error()), []byte(tc.says)) {
			t.Errorf("%s: got %v, want an error saying %q", tc.name, err, tc.says)
		}
	}
}

func TestPollingWritesGForEachRecord(t *testing.T) {
	f := Format{Sensors: 18}
	r1 := seqRaw(18, 7)
	port := &scriptPort{t: t, steps: []step{
		{"\x03", ""}, {"?S", "?S\x12\x00"}, {"?G", "?G\x03\x00"}, {"?R", "?R\x00\x00"}, {"u 0\r", "u\x00"},
		{"G", string(record('G', f, r1, 0, 0))},
		{"G", "Geg\x00"},
	}}
	o := testOpts(port)
	o.Mode, o.StatusByte = Poll, false
	g, err := OpenCyberGlove(o)
	if err != nil {
		t.Fatal(err)
	}
	var s Sample
	if err := g.Read(&s); err != nil || !slices.Equal(toBytes(s.Sensors()), r1) {
		t.Fatalf("polled sample: %v %+v", err, s)
	}
	if err := g.Read(&s); !errors.Is(err, ErrNoGlove) || !Transient(err) {
		t.Fatalf("unplugged glove: got %v, want ErrNoGlove", err)
	}
	if g.GloveInfo().Right || g.Faults().NoGlove != 1 {
		t.Errorf("info %+v faults %+v", g.GloveInfo(), g.Faults())
	}
}

// emulated starts an emulator on a pty and returns its path and the
// records it sends.
type emulated struct {
	path string
	mu   sync.Mutex
	sent [][]byte
	emu  *Emulator
}

func (e *emulated) records() [][]byte {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.sent)
}

func startEmulator(t *testing.T, o EmulatorOpts, link string, h Hangup) *emulated {
	t.Helper()
	em := &emulated{}
	o.OnRecord = func(raw []uint16) {
		em.mu.Lock()
		em.sent = append(em.sent, toBytes(raw))
		em.mu.Unlock()
	}
	if o.Source == nil {
		o.Source = func(t time.Duration, s *[MaxSensors]uint16) { SimRaw(Grasp, t, s) }
	}
	e, err := NewEmulator(o)
	if err != nil {
		t.Fatal(err)
	}
	em.emu = e
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 4)
	done := make(chan error, 1)
	go func() { done <- RunEmulator(ctx, e, link, h, func(p string) { ready <- p }) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("emulator: %v", err)
		}
	})
	em.path = <-ready
	if link != "" {
		em.path = link
	}
	return em
}

// open connects the driver to the emulator with the default options as
// changed by edit (if any); the glove is closed when the test ends.
func (em *emulated) open(t *testing.T, edit func(*CyberGloveOpts)) *CyberGlove {
	t.Helper()
	o := DefaultCyberGloveOpts
	o.Port = em.path
	if edit != nil {
		edit(&o)
	}
	g, err := OpenCyberGlove(o)
	if err != nil {
		t.Fatalf("opening %s: %v", em.path, err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

// checkSubsequence asserts every received sample is a record the emulator
// sent, in order.
func checkSubsequence(t *testing.T, got, sent [][]byte) {
	t.Helper()
	k := 0
	for i, g := range got {
		for k < len(sent) && !bytes.Equal(sent[k], g) {
			k++
		}
		if k == len(sent) {
			t.Fatalf("sample %d %v was never sent (or came out of order)", i, g)
		}
		k++
	}
}

func TestDriverAgainstEmulatorOverPTY(t *testing.T) {
	for _, tc := range []struct {
		sensors int
		mode    Mode
	}{{22, Stream}, {18, Stream}, {22, Poll}, {18, Poll}} {
		em := startEmulator(t, EmulatorOpts{Sensors: tc.sensors, Right: true}, "", Hangup{})
		g := em.open(t, func(o *CyberGloveOpts) { o.Mode, o.Period = tc.mode, 5*time.Millisecond })
		var got [][]byte
		var s Sample
		for len(got) < 60 {
			if err := g.Read(&s); err != nil {
				t.Fatalf("%d sensors mode %d: %v", tc.sensors, tc.mode, err)
			}
			if s.N != tc.sensors {
				t.Fatalf("sample with %d sensors", s.N)
			}
			got = append(got, toBytes(s.Sensors()))
		}
		g.Close()
		sent := em.records()
		checkSubsequence(t, got, sent)
		if tc.mode == Poll && !slices.EqualFunc(got, sent[:len(got)], bytes.Equal) {
			t.Errorf("polling must return every record in order")
		}
		if f := g.Faults(); f.BadFrames != 0 {
			t.Errorf("clean line counted faults: %+v", f)
		}
	}
}

func TestDriverSurvivesGarbage(t *testing.T) {
	em := startEmulator(t, EmulatorOpts{Sensors: 22, Right: true, Garbage: 0.15, Seed: 3}, "", Hangup{})
	g := em.open(t, func(o *CyberGloveOpts) { o.Period = 3 * time.Millisecond })
	var got [][]byte
	var s Sample
	for len(got) < 400 {
		if err := g.Read(&s); err != nil {
			if Transient(err) {
				continue
			}
			t.Fatal(err)
		}
		got = append(got, toBytes(s.Sensors()))
	}
	g.Close()
	checkSubsequence(t, got, em.records())
	f := g.Faults()
	if f.BadFrames == 0 || f.Resyncs == 0 || em.emu.Stats().GarbageBursts == 0 {
		t.Errorf("garbage went unseen: faults %+v, emulator %+v", f, em.emu.Stats())
	}
	t.Logf("400 samples of %d sent, %d garbage bursts, faults %+v", len(em.records()), em.emu.Stats().GarbageBursts, f)
}

func TestDriverReportsUnpluggedGlove(t *testing.T) {
	em := startEmulator(t, EmulatorOpts{Sensors: 22, UnplugAt: 300 * time.Millisecond, UnplugFor: 300 * time.Millisecond}, "", Hangup{})
	g := em.open(t, nil)
	var before, during, after int
	var s Sample
	deadline := time.Now().Add(3 * time.Second)
	for after < 20 && time.Now().Before(deadline) {
		err := g.Read(&s)
		switch {
		case errors.Is(err, ErrNoGlove):
			during++
		case err == nil && during == 0:
			before++
		case err == nil:
			after++
		case !Transient(err):
			t.Fatal(err)
		}
	}
	if before == 0 || during == 0 || after < 20 || g.Faults().NoGlove == 0 {
		t.Fatalf("samples before %d, no-glove reports %d, samples after %d, faults %+v", before, during, after, g.Faults())
	}
}

func TestDriverReconnectsAfterHangup(t *testing.T) {
	link := filepath.Join(t.TempDir(), "glove")
	em := startEmulator(t, EmulatorOpts{Sensors: 18}, link, Hangup{At: 300 * time.Millisecond, For: 400 * time.Millisecond})
	g := em.open(t, nil)
	var before, disconnected, after int
	var s Sample
	var got [][]byte
	deadline := time.Now().Add(5 * time.Second)
	for after < 20 && time.Now().Before(deadline) {
		err := g.Read(&s)
		switch {
		case errors.Is(err, ErrDisconnected):
			disconnected++
		case err == nil && disconnected == 0:
			before++
			got = append(got, toBytes(s.Sensors()))
		case err == nil:
			after++
			got = append(got, toBytes(s.Sensors()))
		case !Transient(err):
			t.Fatal(err)
		}
	}
	f := g.Faults()
	if before == 0 || disconnected == 0 || after < 20 || f.Reconnects == 0 {
		t.Fatalf("before %d, disconnected reports %d, after %d, faults %+v", before, disconnected, after, f)
	}
	checkSubsequence(t, got, em.records())
}

func TestCloseUnblocksRead(t *testing.T) {
	em := startEmulator(t, EmulatorOpts{Sensors: 22}, "", Hangup{})
	g := em.open(t, func(o *CyberGloveOpts) { o.Mode = Poll })
	done := make(chan error)
	go func() {
		var s Sample
		for {
			if err := g.Read(&s); errors.Is(err, ErrClosed) {
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
