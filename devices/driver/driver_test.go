package driver

import (
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/serialport"
)

// fake is a driver that opens nothing, of layouts of the given sizes.
func fake(name string, sensors ...int) *Driver {
	d := &Driver{Name: name, Open: func(Config) (*Opened, error) { return nil, nil }}
	for _, n := range sensors {
		l := &devices.Layout{Name: name, Bits: 8}
		for i := range n {
			l.Sensors = append(l.Sensors, devices.Channel{Name: string(rune('a' + i))})
		}
		d.Layouts = append(d.Layouts, l)
	}
	return d
}

func TestRegisterRefusesWhatCannotWork(t *testing.T) {
	for _, tc := range []struct {
		d    *Driver
		says string
	}{
		{fake("", 5), "want a lower-case word"},
		{fake("Glove", 5), "want a lower-case word"},
		{fake("two words", 5), "want a lower-case word"},
		{&Driver{Name: "noopen", Layouts: fake("x", 5).Layouts}, "no open function"},
		{fake("nolayout"), "no sensor layout"},
		{&Driver{Name: "probes", Open: fake("x").Open, Layouts: fake("x", 5).Layouts, Probe: func(serialport.Conn, time.Duration) (string, error) { return "", nil }}, "not a serial glove"},
		{&Driver{Name: "badlayout", Open: fake("x").Open, Layouts: []*devices.Layout{{Name: "l"}}}, "badlayout: devices: layout l"},
		{func() *Driver { d := fake("badcount", 5); d.Sensors = 6; return d }(), "default"},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), tc.says) {
					t.Errorf("%q: got %v, want a panic saying %q", tc.d.Name, r, tc.says)
				}
			}()
			Register(tc.d)
		}()
	}
}

func TestLookupFindsRegisteredDriversAndListsThem(t *testing.T) {
	a, b := fake("registrytesta", 5), fake("registrytestb", 18, 22)
	b.Replays = true
	Register(a)
	Register(b)
	if d, err := Lookup("registrytesta"); err != nil || d != a {
		t.Fatalf("got %v %v", d, err)
	}
	_, err := Lookup("registrytestc")
	if err == nil || !strings.Contains(err.Error(), `device = "registrytestc": want `) || !strings.Contains(err.Error(), "registrytesta or registrytestb") {
		t.Errorf("an unknown driver: got %v", err)
	}
	if got := OrList((*Driver).Records); strings.Contains(got, "registrytestb") || !strings.Contains(got, "registrytesta") {
		t.Errorf("recorded drivers: %q", got)
	}
	if l, err := b.Layout(22); err != nil || len(l.Sensors) != 22 {
		t.Errorf("Layout(22): %v %v", l, err)
	}
	if _, err := b.Layout(20); err == nil || !strings.Contains(err.Error(), "it has 18 or 22") {
		t.Errorf("Layout(20): %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("a second driver of one name was taken")
		}
	}()
	Register(fake("registrytesta", 5))
}

func TestOptionsDecodeStrictlyAndSetFromFlags(t *testing.T) {
	var o Options
	for _, kv := range []string{"wave=sine", "hz=2.5", "n = 3", "on=true", `name="a b"`} {
		if err := o.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	if err := o.Set("novalue"); err == nil {
		t.Error("Set without =: no error")
	}
	var v struct {
		Wave string  `toml:"wave"`
		Hz   float64 `toml:"hz"`
		N    int     `toml:"n"`
		On   bool    `toml:"on"`
		Name string  `toml:"name"`
	}
	if err := o.Decode(&v); err != nil || v.Wave != "sine" || v.Hz != 2.5 || v.N != 3 || !v.On || v.Name != "a b" {
		t.Fatalf("decoded %+v, %v", v, err)
	}
	if got := o.String(); got != "hz=2.5 n=3 name=a b on=true wave=sine" {
		t.Errorf("String: %q", got)
	}
	o["extra"] = 1
	if err := o.Decode(&v); err == nil || err.Error() != "options: unknown key extra" {
		t.Errorf("an unknown option: %v", err)
	}
	if err := (Options{}).Decode(&v); err != nil {
		t.Errorf("no options: %v", err)
	}
}
