package cyberglove

import (
	"bytes"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/serialtest"
)

func testOpts(port Port) Opts {
	o := DefaultOpts
	o.Port = "scripted"
	o.Open = func(string, int, time.Duration) (Port, error) { return port, nil }
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
		{"u 1\r", "u\x00"},
		{"S", stream},
	}...)
	g, err := Open(testOpts(port))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if info := g.GloveInfo(); info != (devices.GloveInfo{Model: "cyberglove", Sensors: 22, Right: true}) {
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
		{"wrong count", []serialtest.Step{{"\x03", ""}, {"?S", "?S\x14\x00"}}, nil, "?S: devices: 20 sensors"},
		{"configured count differs", []serialtest.Step{{"\x03", ""}, {"?S", "?S\x12\x00"}, {"?G", "?G\x03\x00"}, {"?R", "?R\x01\x00"}}, func(o *Opts) { o.Sensors = 22 }, "unit reports 18 sensors, configured for 22"},
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
		{"\x03", ""}, {"?S", "?S\x12\x00"}, {"?G", "?G\x03\x00"}, {"?R", "?R\x00\x00"}, {"u 0\r", "u\x00"},
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
