package cyberglove

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/serialport"
	"github.com/gloved/gloved/devices/serialport/serialtest"
)

func testOpts(port serialport.Conn) Opts {
	o := DefaultOpts
	o.Port = "scripted"
	o.Open = func(string, int, time.Duration) (serialport.Conn, error) { return port, nil }
	return o
}

func TestOpenSequenceIsByteExact(t *testing.T) {
	f := Format{Sensors: 22, Status: true}
	r1, r2 := seqRaw(22, 5), seqRaw(22, 50)
	stream := string(record('S', f, r1, 0, 3)) + string(record('S', f, r2, 0, 1)) + "S"
	port := serialtest.New(t, []serialtest.Step{
		{"\x03", "S\x01\x02"}, // a stale stream tail, drained
		{"?S", "?S\x16\x00"},
		{"?G", "?G\x03\x00"},
		{"?R", "?R\x01\x00"},
		{"t 1152 1\r", "t\x00"},
		{"u 1\r", "u\x00"}, {"d 0\r", "d\x00"},
		{"S", stream},
	}...)
	g, err := Open(testOpts(port))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if info := g.GloveInfo(); info != (devices.GloveInfo{Model: "cyberglove", Sensors: 22, Right: true, Rate: 100}) {
		t.Errorf("info %+v", info)
	}
	var s devices.Sample
	for i, want := range [][]byte{r1, r2} {
		if err := g.Read(&s); err != nil {
			t.Fatal(err)
		}
		if s.Seq != uint64(i) || !slices.Equal(toBytes(s.Sensors()), want) || s.Status&devices.StatusGloveIn == 0 {
			t.Fatalf("sample %d: %+v", i, s)
		}
	}
	if len(port.Remaining()) != 0 {
		t.Fatalf("script not finished: %+v", port.Remaining())
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
		steps []serialtest.Step
		opt   func(*Opts)
		says  string
	}{
		{"silent port", []serialtest.Step{{"\x03", ""}}, nil, "no reply within"},
		{"wrong count", []serialtest.Step{{"\x03", ""}, {"?S", "?S\x14\x00"}}, nil, "?S: 20 sensors: CyberGlove units have 18 or 22"},
		{"configured count differs", []serialtest.Step{{"\x03", ""}, {"?S", "?S\x12\x00"}, {"?G", "?G\x03\x00"}, {"?R", "?R\x01\x00"}}, func(o *Opts) { o.Sensors = 22 }, "the unit reports 18 sensors, but 22 are asked for"},
		{"period refused", []serialtest.Step{{"\x03", ""}, {"?S", "?S\x16\x00"}, {"?G", "?G\x03\x00"}, {"?R", "?R\x00\x00"}, {"t 1152 1\r", "te\x6e\x00"}}, nil, `unit answered error 'n'`},
	}
	for _, tc := range tests {
		port := serialtest.New(t, tc.steps...)
		o := testOpts(port)
		o.ReplyTimeout = 50 * time.Millisecond
		if tc.opt != nil {
			tc.opt(&o)
		}
		_, err := Open(o)
		if err == nil || !bytes.Contains([]byte(err.Error()), []byte(tc.says)) {
			t.Errorf("%s: got %v, want an error saying %q", tc.name, err, tc.says)
		}
	}
}

func TestPollingWritesGForEachRecord(t *testing.T) {
	f := Format{Sensors: 18}
	r1 := seqRaw(18, 7)
	port := serialtest.New(t, []serialtest.Step{
		{"\x03", ""}, {"?S", "?S\x12\x00"}, {"?G", "?G\x03\x00"}, {"?R", "?R\x00\x00"}, {"u 0\r", "u\x00"}, {"d 0\r", "d\x00"},
		{"G", string(record('G', f, r1, 0, 0))},
		{"G", "Geg\x00"},
	}...)
	o := testOpts(port)
	o.Mode, o.StatusByte = Poll, false
	g, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	var s devices.Sample
	if err := g.Read(&s); err != nil || !slices.Equal(toBytes(s.Sensors()), r1) {
		t.Fatalf("polled sample: %v %+v", err, s)
	}
	if err := g.Read(&s); !errors.Is(err, devices.ErrNoGlove) || !devices.Transient(err) {
		t.Fatalf("unplugged glove: got %v, want ErrNoGlove", err)
	}
	if g.GloveInfo().Right || g.Faults().NoGlove != 1 {
		t.Errorf("info %+v faults %+v", g.GloveInfo(), g.Faults())
	}
}

// babbler plays a script, then sends bytes that never make a record, as
// a line at the wrong baud rate does.
type babbler struct {
	*serialtest.Playback
}

func (b babbler) Read(p []byte) (int, error) {
	n, err := b.Playback.Read(p)
	if n > 0 || err != io.EOF || len(b.Remaining()) > 0 {
		return n, err
	}
	noise := []byte{0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10}
	return copy(p, noise), nil
}

// TestReadReportsBytesThatMakeNoRecord: a unit whose line keeps carrying
// bytes that make no record does not hold Read forever: it returns
// ErrTimeout after three read timeouts' worth of them (so the daemon
// reports the hand stalled) with the skipped bytes counted, and again
// after each further three.
func TestReadReportsBytesThatMakeNoRecord(t *testing.T) {
	queries := []serialtest.Step{{"\x03", ""}, {"?S", "?S\x16\x00"}, {"?G", "?G\x03\x00"}, {"?R", "?R\x01\x00"}}
	for _, tc := range []struct {
		model Model
		start []serialtest.Step
	}{
		{ModelII, []serialtest.Step{{"t 1152 1\r", "t\x00"}, {"u 1\r", "u\x00"}, {"d 0\r", "d\x00"}, {"S", ""}}},
		{ModelIII, []serialtest.Step{{"1eu", "1eu\x00"}, {"1S", "1S"}}},
	} {
		port := babbler{serialtest.New(t, append(slices.Clone(queries), tc.start...)...)}
		o := testOpts(port)
		o.Model = tc.model
		g, err := Open(o)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan []error, 1)
		go func() {
			var errs []error
			var s devices.Sample
			for range 2 {
				errs = append(errs, g.Read(&s))
			}
			done <- errs
		}()
		select {
		case errs := <-done:
			for _, err := range errs {
				if !errors.Is(err, devices.ErrTimeout) {
					t.Errorf("%s: Read returned %v, want ErrTimeout", tc.model, err)
				}
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Read is still reading a line of bytes that make no record", tc.model)
		}
		if f := g.Faults(); f.SkippedBytes == 0 {
			t.Errorf("%s: faults %+v: the skipped bytes are not counted", tc.model, f)
		}
		g.Close()
	}
}
