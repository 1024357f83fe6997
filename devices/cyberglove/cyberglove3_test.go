package cyberglove

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/devices/serialport"
	"github.com/gloved/gloved/devices/serialport/serialtest"
)

func testOpts3(port serialport.Conn) Opts {
	o := testOpts(port)
	o.Model = ModelIII
	return o
}

// TestOpen3SequenceIsByteExact: a CyberGlove III is opened with ^C (a
// stale 16-bit stream drained), ?S ?G ?R, 1eu and 1S, nothing else; the
// echo of 1S before the first stamp is skipped; the samples carry the
// values and stamps sent.
func TestOpen3SequenceIsByteExact(t *testing.T) {
	for _, sensors := range []int{22, 18} {
		v0, v1 := values3(10), values3(11)
		stale := record3(90, values3(90))[20:] // half a record of a stream left running
		port := serialtest.New(t, []serialtest.Step{
			{"\x03", string(stale)},
			{"?S", "?S" + string(rune(sensors)) + "\x00"},
			{"?G", "?G\x03\x00"},
			{"?R", "?R\x00\x00"},
			{"1eu", "1eu\x00"},
			{"1S", "1S" + string(record3(0, v0)) + string(record3(1, v1))},
		}...)
		g, err := Open(testOpts3(port))
		if err != nil {
			t.Fatal(err)
		}
		if info := g.GloveInfo(); info != (devices.GloveInfo{Model: "cyberglove3", Sensors: sensors, Right: false, Rate: 90}) {
			t.Errorf("info %+v", info)
		}
		var s devices.Sample
		for i, v := range [][layout.Slots]uint16{v0, v1} {
			if err := g.Read(&s); err != nil {
				t.Fatal(err)
			}
			var want devices.Sample
			layout.FromSlots(&v, sensors, &want)
			if s.Seq != uint64(i) || s.N != sensors || s.Bits != devices.Bits12 || !slices.Equal(s.Sensors(), want.Sensors()) || s.GloveTime != stamp3(i).Count() || s.Status != 0 {
				t.Fatalf("%d sensors, sample %d: %+v", sensors, i, s)
			}
		}
		if len(port.Remaining()) != 0 {
			t.Fatalf("script not finished: %+v", port.Remaining())
		}
		if f := g.Faults(); f.BadFrames != 0 || f.SkippedBytes != uint64(len(stale))+2 {
			t.Errorf("faults %+v: want the stale half record and the echo skipped", f)
		}
		g.Close()
	}
}

// TestOpen3AcceptsWhatTheReferenceLeavesOpen: the reply to 1eu is not
// documented, so a bare 0x00, silence, an echo with a line end and any
// other reply that is no error tail are consent as much as the echo.
func TestOpen3AcceptsWhatTheReferenceLeavesOpen(t *testing.T) {
	for name, ack := range map[string]string{"bare terminator": "\x00", "silence": "", "echo and a line end": "1eu\r\n\x00", "something else": "xyz\x00"} {
		port := serialtest.New(t, []serialtest.Step{
			{"\x03", ""}, {"?S", "?S\x16\x00"}, {"?G", "?G\x03\x00"}, {"?R", "?R\x01\x00"},
			{"1eu", ack},
			{"1S", string(record3(0, values3(0))) + string(stamp3(1).Append(nil))},
		}...)
		o := testOpts3(port)
		o.ReplyTimeout = 50 * time.Millisecond
		g, err := Open(o)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var s devices.Sample
		if v := values3(0); g.Read(&s) != nil || !slices.Equal(s.Sensors(), v[:]) {
			t.Errorf("%s: %+v", name, s)
		}
		g.Close()
	}
}

func TestOpen3FailsClearly(t *testing.T) {
	queries := []serialtest.Step{{"\x03", ""}, {"?S", "?S\x16\x00"}, {"?G", "?G\x03\x00"}, {"?R", "?R\x01\x00"}}
	for _, tc := range []struct {
		name  string
		steps []serialtest.Step
		opt   func(*Opts)
		says  string
	}{
		{"an I/II refuses 1eu", append(slices.Clone(queries), serialtest.Step{"1eu", "e?\x00"}), nil, `"1eu": unit answered error '?' (is this a CyberGlove III?`},
		{"an echo then an error", append(slices.Clone(queries), serialtest.Step{"1eu", "1eue?\x00"}), nil, `"1eu": unit answered error '?'`},
		{"no answer to ?S and no sensor count set", []serialtest.Step{{"\x03", ""}, {"?S", ""}}, func(o *Opts) { o.Side = "right" }, "?S: no reply within 50ms (is a CyberGlove unit on this port, at this baud rate?); a CyberGlove III that does not answer the queries needs its sensors (18 or 22) and side (right or left) in its [[hand]]"},
		{"no answer to ?R and no side set", append(slices.Clone(queries[:3]), serialtest.Step{"?R", ""}), func(o *Opts) { o.Sensors = 22 }, "needs its sensors (18 or 22) and side (right or left)"},
		{"polling asked for", nil, func(o *Opts) { o.Mode = Poll }, "a CyberGlove III streams its 16-bit records: it cannot be polled"},
		{"unknown model", nil, func(o *Opts) { o.Model = "cyberglove4" }, `model "cyberglove4": want cyberglove or cyberglove3`},
		{"sensor count", []serialtest.Step{{"\x03", ""}, {"?S", "?S\x14\x00"}}, nil, "?S: 20 sensors: CyberGlove units have 18 or 22"},
	} {
		port := serialtest.New(t, tc.steps...)
		o := testOpts3(port)
		o.ReplyTimeout = 50 * time.Millisecond
		if tc.opt != nil {
			tc.opt(&o)
		}
		_, err := Open(o)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: got %v, want an error saying %q", tc.name, err, tc.says)
		}
	}
}

// TestOpen3TakesTheConfigurationWhenTheUnitAnswersNoQueries: a III that
// leaves ?S unanswered is opened as the configured sensor count and side
// (the open goes on to 1eu and 1S), says it assumed them, and streams.
func TestOpen3TakesTheConfigurationWhenTheUnitAnswersNoQueries(t *testing.T) {
	port := serialtest.New(t, []serialtest.Step{
		{"\x03", ""}, {"?S", ""}, {"1eu", "1eu\x00"},
		{"1S", "1S" + string(record3(0, values3(0))) + string(stamp3(1).Append(nil))},
	}...)
	o := testOpts3(port)
	o.ReplyTimeout, o.Sensors, o.Side = 50*time.Millisecond, 22, "left"
	g, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if info := g.GloveInfo(); info != (devices.GloveInfo{Model: "cyberglove3", Sensors: 22, Right: false, Assumed: true, Rate: 90}) {
		t.Errorf("info %+v, want the configured 22 sensors, left, assumed", info)
	}
	var s devices.Sample
	if v := values3(0); g.Read(&s) != nil || !slices.Equal(s.Sensors(), v[:]) {
		t.Errorf("sample %+v", s)
	}
}

// TestRead3RestartsAndReportsTheGlove: a III whose stream stops is sent ^C
// 1S after three quiet reads; an error in place of the values reports the
// glove unplugged from the unit.
func TestRead3RestartsAndReportsTheGlove(t *testing.T) {
	unplugged := string(AppendError3(nil, stamp3(1), 'g'))
	port := serialtest.New(t, []serialtest.Step{
		{"\x03", ""}, {"?S", "?S\x16\x00"}, {"?G", "?G\x03\x00"}, {"?R", "?R\x01\x00"}, {"1eu", "1eu\x00"},
		{"1S", "1S" + string(record3(0, values3(0))) + string(record3(1, values3(1)))},
		{"\x031S", "1S" + unplugged + string(record3(2, values3(2)))},
	}...)
	g, err := Open(testOpts3(port))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	var s devices.Sample
	for range 2 {
		if err := g.Read(&s); err != nil {
			t.Fatal(err)
		}
	}
	timeouts := 0
	for {
		err := g.Read(&s)
		if errors.Is(err, devices.ErrTimeout) {
			timeouts++
			continue
		}
		if !errors.Is(err, devices.ErrNoGlove) || !devices.Transient(err) {
			t.Fatalf("got %v, want the glove reported unplugged", err)
		}
		break
	}
	if err, v := g.Read(&s), values3(2); err != nil || !slices.Equal(s.Sensors(), v[:]) {
		t.Fatalf("after the restart: %v %+v", err, s)
	}
	if f := g.Faults(); timeouts != 3 || f.NoGlove != 1 || f.ErrorTails != 1 || f.Timeouts != 3 || len(port.Remaining()) != 0 {
		t.Errorf("%d timeouts, faults %+v, script left %+v", timeouts, f, port.Remaining())
	}
}
