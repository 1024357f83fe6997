package opengloves_test

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/driver"
	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/devices/emulator/emulatortest"
	"github.com/gloved/gloved/devices/opengloves"
	"github.com/gloved/gloved/devices/recording"
	"github.com/gloved/gloved/devices/serialport"
	"github.com/gloved/gloved/handmodel"
)

// sent keeps the curls and splays of every line an emulator sent.
// A line without splays leaves them at mid scale.
type sent struct {
	mu    sync.Mutex
	splay bool
	mid   uint16
	lines [][]uint16
}

func (s *sent) take(v *[opengloves.Channels]uint16) {
	line := slices.Clone(v[:opengloves.Joint])
	if !s.splay {
		for f := range 5 {
			line[opengloves.Splay+f] = s.mid
		}
	}
	s.mu.Lock()
	s.lines = append(s.lines, line)
	s.mu.Unlock()
}

func (s *sent) all() [][]uint16 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.lines)
}

// open serves an emulated glove with o and opens the registered driver
// on it as a [[hand]] with options.max = max would, its port's bytes
// tapped.
func open(t *testing.T, o emulator.OpenGlovesOpts, link string, h emulator.Hangup, max int, tap func(time.Duration, []byte)) (*sent, *emulator.OpenGloves, *driver.Opened) {
	t.Helper()
	s := &sent{splay: o.Form.Splay, mid: uint16(max / 2)}
	o.OnLine, o.Max = s.take, max
	path, e := emulatortest.StartOpenGloves(t, o, link, h)
	d, err := driver.Lookup(opengloves.Name)
	if err != nil {
		t.Fatal(err)
	}
	c := driver.Config{Port: path, Baud: 115200, Options: driver.Options{"max": int64(max)}, Tap: tap}
	if err := d.Check(&c); err != nil {
		t.Fatal(err)
	}
	g, err := d.Open(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Device.Close() })
	return s, e, g
}

// read reads n samples, skipping transient errors; their sequence
// numbers follow each other.
func read(t *testing.T, g devices.Device, n int) [][]uint16 {
	t.Helper()
	var got [][]uint16
	var s devices.Sample
	first := uint64(0)
	for deadline := time.Now().Add(20 * time.Second); len(got) < n; {
		if time.Now().After(deadline) {
			t.Fatalf("%d samples of %d", len(got), n)
		}
		if err := g.Read(&s); err != nil {
			if devices.Transient(err) {
				continue
			}
			t.Fatal(err)
		}
		if len(got) == 0 {
			first = s.Seq
		}
		if s.Seq != first+uint64(len(got)) {
			t.Fatalf("sample %d has seq %d", len(got), s.Seq)
		}
		got = append(got, slices.Clone(s.Sensors()))
	}
	return got
}

// curlsAndSplays cuts samples to the channels a line sends of them.
func curlsAndSplays(got [][]uint16) [][]uint16 {
	for i := range got {
		got[i] = got[i][:opengloves.Joint]
	}
	return got
}

// TestTheDriverReadsAnEmulatedGloveAtEitherFullScale: the registered
// driver, opened on a pseudo-terminal, reads an ESP32 and an AVR glove
// built with splay and force feedback: the samples are the lines sent, in
// order, at 12 and 10 bits; it answers every line (a force-feedback
// firmware waits a second for it, so 100 lines would take 100 s
// otherwise), with what Send queued when there is, and frees every servo
// when closed; and the tapped bytes
// parse, through the driver's recording parser, into the same samples.
func TestTheDriverReadsAnEmulatedGloveAtEitherFullScale(t *testing.T) {
	for _, max := range []int{opengloves.MaxESP32, opengloves.MaxAVR} {
		var mu sync.Mutex
		var tapped [][]byte
		tap := func(_ time.Duration, b []byte) {
			mu.Lock()
			tapped = append(tapped, slices.Clone(b))
			mu.Unlock()
		}
		s, e, g := open(t, emulator.OpenGlovesOpts{Form: opengloves.Form{Splay: true}, ForceFeedback: true, Period: 2 * time.Millisecond}, "", emulator.Hangup{}, max, tap)
		start := time.Now()
		var sample devices.Sample
		for g.Device.Read(&sample) != nil {
		}
		if want := map[int]uint8{4095: 12, 1023: 10}[max]; sample.Bits != want || sample.N != opengloves.Channels {
			t.Fatalf("max %d: a sample of %d channels at %d bits", max, sample.N, sample.Bits)
		}
		if err := g.Device.(devices.Sender).Send([]byte("A0B1000C0D0E0\n")); err != nil {
			t.Fatal(err)
		}
		got := read(t, g.Device, 100)
		if time.Since(start) > 15*time.Second {
			t.Errorf("max %d: 100 lines took %v: the lines went unanswered", max, time.Since(start))
		}
		lines := e.Stats().ServoLines
		g.Device.Close()
		emulatortest.CheckSubsequence(t, curlsAndSplays(slices.Clone(got)), s.all())
		st := freed(t, e, lines)
		if st.Answers < 100 || st.Stopped[1] == 0 {
			t.Errorf("max %d: emulator %+v: want every line answered and the queued one written (the index held back)", max, st)
		}
		for _, v := range got {
			for _, x := range v {
				if int(x) > max {
					t.Fatalf("max %d: a value %d", max, x)
				}
			}
		}
		d, _ := driver.Lookup(opengloves.Name)
		if g.Header.Max != max || g.Header.Model != opengloves.Name {
			t.Fatalf("header %+v", g.Header)
		}
		p, err := d.Parser(g.Header, nil)
		if err != nil {
			t.Fatal(err)
		}
		var replayed [][]uint16
		mu.Lock()
		for _, b := range tapped {
			if len(b) == 0 {
				p.Reset()
				continue
			}
			p.Feed(b)
			for ev, _ := p.Next(&sample); ev == devices.GotSample; ev, _ = p.Next(&sample) {
				replayed = append(replayed, slices.Clone(sample.Sensors()))
			}
		}
		mu.Unlock()
		// The first sample read came before got's.
		if len(replayed) <= len(got) || !slices.EqualFunc(replayed[1:1+len(got)], got, slices.Equal) {
			t.Errorf("max %d: the tapped bytes replayed into %d samples, not the 1+%d read", max, len(replayed), len(got))
		}
	}
}

// TestGarbageNeverForgesASample: with a burst of garbage in one line of
// five, every sample read is a line the glove sent, and the rejected
// lines are counted.
func TestGarbageNeverForgesASample(t *testing.T) {
	s, e, g := open(t, emulator.OpenGlovesOpts{Form: opengloves.Form{Splay: true}, Garbage: 0.2, Seed: 5, Period: 2 * time.Millisecond}, "", emulator.Hangup{}, opengloves.MaxESP32, nil)
	got := read(t, g.Device, 300)
	g.Device.Close()
	emulatortest.CheckSubsequence(t, curlsAndSplays(got), s.all())
	f := g.Device.(devices.FaultCounter).Faults()
	if f.BadFrames == 0 || e.Stats().GarbageBursts == 0 {
		t.Errorf("garbage went unseen: faults %+v, emulator %+v", f, e.Stats())
	}
}

// TestTheDriverReconnectsAfterAnUnplug: the glove's USB unplugged (the
// port hung up and back) is reported as a disconnection, the port
// reopened and the lines read again.
func TestTheDriverReconnectsAfterAnUnplug(t *testing.T) {
	link := filepath.Join(t.TempDir(), "glove")
	s, _, g := open(t, emulator.OpenGlovesOpts{}, link, emulator.Hangup{At: 300 * time.Millisecond, For: 400 * time.Millisecond}, opengloves.MaxESP32, nil)
	before, reports, after, got := emulatortest.Phases(t, g.Device, devices.ErrDisconnected, 5*time.Second)
	f := g.Device.(devices.FaultCounter).Faults()
	if before == 0 || reports == 0 || after < 20 || f.Reconnects == 0 {
		t.Fatalf("before %d, disconnected reports %d, after %d, faults %+v", before, reports, after, f)
	}
	emulatortest.CheckSubsequence(t, curlsAndSplays(got), s.all())
}

// TestASilentGloveIsReportedByTimeouts: a glove that falls silent is
// reported by timeouts, and read again when it speaks.
func TestASilentGloveIsReportedByTimeouts(t *testing.T) {
	_, _, g := open(t, emulator.OpenGlovesOpts{SilentAt: 300 * time.Millisecond, SilentFor: 500 * time.Millisecond}, "", emulator.Hangup{}, opengloves.MaxAVR, nil)
	before, timeouts, after, _ := emulatortest.Phases(t, g.Device, devices.ErrTimeout, 4*time.Second)
	if before == 0 || timeouts < 1 || after < 20 {
		t.Fatalf("before %d, timeouts %d, after %d", before, timeouts, after)
	}
}

// TestTheProbeFindsAGloveAndNothingElse: `gloved ports --probe`'s probe
// says an OpenGloves glove is on a port that streams its lines, even one
// that waits for an answer after each, and that nothing answered on a
// port of a silent glove.
func TestTheProbeFindsAGloveAndNothingElse(t *testing.T) {
	o := serialport.DefaultProbeOpts
	for _, ffb := range []bool{false, true} {
		path, _ := emulatortest.StartOpenGloves(t, emulator.OpenGlovesOpts{ForceFeedback: ffb}, "", emulator.Hangup{})
		if u, err := serialport.Probe(path, o, opengloves.Probe); err != nil || u != "OpenGloves glove (alpha encoding)" {
			t.Errorf("force feedback %v: %q, %v", ffb, u, err)
		}
	}
	path, _ := emulatortest.StartOpenGloves(t, emulator.OpenGlovesOpts{SilentAt: 1, SilentFor: time.Hour}, "", emulator.Hangup{})
	if _, err := serialport.Probe(path, o, opengloves.Probe); !errors.Is(err, serialport.ErrNoReply) {
		t.Errorf("a silent glove: %v", err)
	}
}

// TestTheKeysAreChecked: what a [[hand]] can get wrong is named.
func TestTheKeysAreChecked(t *testing.T) {
	d, _ := driver.Lookup(opengloves.Name)
	for _, tc := range []struct {
		c    driver.Config
		says string
	}{
		{driver.Config{}, "port: an opengloves glove needs its serial port"},
		{driver.Config{Port: "/dev/x", Options: driver.Options{"max": int64(1000)}}, "options.max = 1000: want 4095"},
		{driver.Config{Port: "/dev/x", Options: driver.Options{"maxx": int64(1023)}}, "options: unknown key maxx"},
		{driver.Config{Port: "/dev/x", Poll: true}, "cannot be polled"},
		{driver.Config{Port: "/dev/x", Period: time.Millisecond}, "leave --rate out"},
	} {
		if err := d.Check(&tc.c); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%+v: %v, want %q", tc.c, err, tc.says)
		}
	}
	if _, err := d.Parser(recording.Header{Model: opengloves.Name, Sensors: opengloves.Channels}, nil); err == nil {
		t.Error("a recording without its full scale was taken")
	}
}

// TestTheEmulatorWorksTheControlsWhenAsked: an emulated glove with its
// controls worked turns its joystick round the full circle, A pressed
// while it points right and B while left, never both; without, the
// joystick rests at mid scale and neither is pressed. Read through the
// driver, at the AVR's full scale.
func TestTheEmulatorWorksTheControlsWhenAsked(t *testing.T) {
	const full = opengloves.MaxAVR
	for _, worked := range []bool{true, false} {
		_, _, g := open(t, emulator.OpenGlovesOpts{Controls: worked, Period: 5 * time.Millisecond}, "", emulator.Hangup{}, full, nil)
		got := read(t, g.Device, int(emulator.ControlsTurn/(5*time.Millisecond))*5/4)
		g.Device.Close()
		lo, hi := [2]uint16{full, full}, [2]uint16{}
		var a, b int
		for _, v := range got {
			for k := range 2 {
				lo[k], hi[k] = min(lo[k], v[opengloves.JoyX+k]), max(hi[k], v[opengloves.JoyX+k])
			}
			pa, pb := v[opengloves.Flag+2] != 0, v[opengloves.Flag+3] != 0
			if pa && pb || pa && v[opengloves.JoyX] < full/2 || pb && v[opengloves.JoyX] > full/2+1 {
				t.Fatalf("worked %v: A %v, B %v with the joystick at %d", worked, pa, pb, v[opengloves.JoyX])
			}
			a, b = a+int(v[opengloves.Flag+2]/full), b+int(v[opengloves.Flag+3]/full)
		}
		turned := lo[0] < 20 && lo[1] < 20 && hi[0] > full-20 && hi[1] > full-20 && a > 0 && b > 0
		rest := lo == [2]uint16{full / 2, full / 2} && hi == lo && a == 0 && b == 0
		if worked && !turned || !worked && !rest {
			t.Errorf("worked %v: the joystick ran %v to %v, A pressed in %d samples, B in %d", worked, lo, hi, a, b)
		}
	}
}

// TestTheEmulatedServoStopsAFingerAtTheLimitTheHostSet: a force-feedback
// glove told "B1000" (the index unable to curl) reports the index open
// however the motion bends it, counts the lines its servo held back, and
// says what it received; the other fingers, told 0, move freely.
func TestTheEmulatedServoStopsAFingerAtTheLimitTheHostSet(t *testing.T) {
	_, e, g := open(t, emulator.OpenGlovesOpts{ForceFeedback: true, Form: opengloves.Form{Joints: true}, Period: 2 * time.Millisecond}, "", emulator.Hangup{}, opengloves.MaxESP32, nil)
	if err := g.Device.(devices.Sender).Send(opengloves.AppendFeedback(nil, &[5]uint16{0, 1000, 0, 0, 0}, 0, 0, 0)); err != nil {
		t.Fatal(err)
	}
	for e.Stats().ServoLines == 0 {
		read(t, g.Device, 1)
	}
	cal, err := handmodel.DefaultCalibrationFor(opengloves.Layout)
	if err != nil {
		t.Fatal(err)
	}
	curls := handmodel.NewCurls(&handmodel.DefaultLimits)
	var s devices.Sample
	var most [5]float64
	for n := 0; n < 200; {
		if err := g.Device.Read(&s); err != nil {
			continue
		}
		n++
		var q handmodel.Angles
		if err := cal.Angles(&s, &handmodel.DefaultLimits, &q); err != nil {
			t.Fatal(err)
		}
		for f := range most {
			most[f] = max(most[f], curls.Curl(f, q[:]))
		}
	}
	st := e.Stats()
	if st.Servo != [5]int{0, 1000, 0, 0, 0} || st.Stopped[1] == 0 {
		t.Fatalf("emulator %+v: want the index's servo at 1000 and lines it held back", st)
	}
	if most[1] > 0.02 {
		t.Errorf("the index curled to %.3f past a servo at 1000", most[1])
	}
	if most[2] < 0.1 {
		t.Errorf("the middle finger, free, curled at most %.3f: the motion does not bend it", most[2])
	}
}

// TestClosingTheDriverFreesTheServos: a force-feedback glove whose index
// the host held at 1000 has every servo back at 0 (free) once the driver
// is closed, as a daemon stopping or reloading closes it: the firmware
// moves its servos only on a line it receives, so a finger left held
// would stay blocked until the glove were power-cycled.
func TestClosingTheDriverFreesTheServos(t *testing.T) {
	_, e, g := open(t, emulator.OpenGlovesOpts{ForceFeedback: true, Period: 2 * time.Millisecond}, "", emulator.Hangup{}, opengloves.MaxESP32, nil)
	if err := g.Device.(devices.Sender).Send(opengloves.AppendFeedback(nil, &[5]uint16{0, 1000, 0, 0, 0}, 0, 0, 0)); err != nil {
		t.Fatal(err)
	}
	for e.Stats().Servo[1] != 1000 {
		read(t, g.Device, 1)
	}
	lines := e.Stats().ServoLines
	if err := g.Device.Close(); err != nil {
		t.Fatal(err)
	}
	freed(t, e, lines)
}

// freed waits for the emulator to read a servo line after the first
// lines, the driver closed, and returns its stats once it has every
// servo at 0; the test fails if none comes within 5 s.
func freed(t *testing.T, e *emulator.OpenGloves, lines int) emulator.OpenGlovesStats {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		st := e.Stats()
		if st.ServoLines > lines && st.Servo == [5]int{} {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("emulator %+v after the driver closed: want every servo at 0", st)
		}
	}
}
