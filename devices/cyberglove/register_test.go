package cyberglove

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/driver"
	"github.com/gloved/gloved/devices/recording"
	"github.com/gloved/gloved/devices/serialport/serialtest"
)

// TestRegisteredDriversOpenAsAHandSays: device = "cyberglove" and
// "cyberglove3" open the model a [[hand]] names on its port, and say what
// a recording of it stores, which their parsers read back.
func TestRegisteredDriversOpenAsAHandSays(t *testing.T) {
	queries := []serialtest.Step{{"\x03", ""}, {"?S", "?S\x16\x00"}, {"?G", "?G\x03\x00"}, {"?R", "?R\x01\x00"}}
	for _, tc := range []struct {
		name  string
		start []serialtest.Step
		want  recording.Header
	}{
		{"cyberglove", []serialtest.Step{{"t 1152 1\r", "t\x00"}, {"u 1\r", "u\x00"}, {"d 0\r", "d\x00"}, {"S", ""}},
			recording.Header{Model: "cyberglove", Sensors: 22, Hand: "right", Mode: "stream", StatusByte: true, Source: "scripted"}},
		{"cyberglove3", []serialtest.Step{{"1eu", "1eu\x00"}, {"1S", "1S"}},
			recording.Header{Model: "cyberglove3", Sensors: 22, Hand: "right", Mode: "stream", Source: "scripted"}},
	} {
		d, err := driver.Lookup(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		port := serialtest.New(t, append(queries, tc.start...)...)
		var taps int
		o, err := d.Open(driver.Config{Port: "scripted", Baud: 115200, Open: port.Opener(), Tap: func(time.Duration, []byte) { taps++ }})
		if err != nil {
			t.Fatal(err)
		}
		if o.Header != tc.want || o.Info.Model != tc.name || !d.Serial || taps == 0 {
			t.Errorf("%s: header %+v, info %+v, %d taps; want %+v", tc.name, o.Header, o.Info, taps, tc.want)
		}
		// The stream starts at the first Read, not at Open: what a unit
		// would stream while its caller readies itself never piles up.
		if rest := port.Remaining(); len(rest) != 1 {
			t.Errorf("%s: after Open the script has %q left, want the start command alone", tc.name, rest)
		}
		var s devices.Sample
		if err := o.Device.Read(&s); !errors.Is(err, devices.ErrTimeout) { // no records follow
			t.Errorf("%s: the first Read: %v, want a timeout", tc.name, err)
		}
		if rest := port.Remaining(); len(rest) != 0 {
			t.Errorf("%s: after the first Read the script has %q left", tc.name, rest)
		}
		o.Device.Close()
		p, err := d.Parser(o.Header, nil)
		switch p := p.(type) {
		case *Parser:
			if p.Format != (Format{Sensors: 22, Status: true}) || !p.Confirm {
				t.Errorf("%s: replayed with %+v", tc.name, p.Format)
			}
		case *Parser3:
			if p.Sensors != 22 {
				t.Errorf("%s: replayed with %d sensors", tc.name, p.Sensors)
			}
		default:
			t.Errorf("%s: parser %T, %v", tc.name, p, err)
		}
	}
}

func TestRegisteredDriversCheckTheirKeys(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    driver.Config
		says string
	}{
		{"cyberglove", driver.Config{}, "port: a cyberglove needs its serial port"},
		{"cyberglove3", driver.Config{}, "port: a cyberglove3 needs its serial port"},
		{"cyberglove3", driver.Config{Port: "p", Poll: true}, "only a cyberglove (I/II) can be polled"},
		{"cyberglove3", driver.Config{Port: "p", Period: time.Millisecond}, "rate: a cyberglove3 streams at its own rate"},
		{"cyberglove", driver.Config{Port: "p", Poll: true, Period: time.Millisecond}, ""},
	} {
		d, _ := driver.Lookup(tc.name)
		err := d.Check(&tc.c)
		if (tc.says == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.says)) {
			t.Errorf("%s %+v: got %v, want %q", tc.name, tc.c, err, tc.says)
		}
	}
}
