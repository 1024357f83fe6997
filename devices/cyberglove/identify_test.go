package cyberglove

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/devices/serialport/serialtest"
)

// Identify sends exactly the open sequence's queries and nothing after
// them: no sample period, no status byte, no stream.
func TestIdentifyAsksAndSetsNothing(t *testing.T) {
	tests := []struct {
		name  string
		steps []serialtest.Step
		want  Unit
		says  string
	}{
		{"right glove, 22 sensors", []serialtest.Step{{"\x03", "S\x01\x02"}, {"?S", "?S\x16\x00"}, {"?G", "?G\x03\x00"}, {"?R", "?R\x01\x00"}},
			Unit{GloveInfo: devices.GloveInfo{Model: "cyberglove", Sensors: 22, Right: true}, GloveIn: true}, "CyberGlove (22 sensors, right)"},
		{"left glove unplugged from its unit", []serialtest.Step{{"\x03", ""}, {"?S", "?S\x12\x00"}, {"?G", "?G\x01\x00"}, {"?R", "?R\x00\x00"}},
			Unit{GloveInfo: devices.GloveInfo{Model: "cyberglove", Sensors: 18}}, "CyberGlove (18 sensors, left), glove not plugged in"},
	}
	for _, tc := range tests {
		port := serialtest.New(t, tc.steps...)
		u, err := Identify(port, 50*time.Millisecond)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if u != tc.want || u.String() != tc.says {
			t.Errorf("%s: got %+v %q, want %+v %q", tc.name, u, u, tc.want, tc.says)
		}
		if r := port.Remaining(); len(r) != 0 {
			t.Errorf("%s: script not finished: %+v", tc.name, r)
		}
	}
}

func TestIdentifyFailuresSayWhatWasHeard(t *testing.T) {
	tests := []struct {
		name    string
		steps   []serialtest.Step
		noReply bool
		says    string
	}{
		{"nothing answers", []serialtest.Step{{"\x03", ""}}, true, "?S: no reply within 50ms"},
		{"another device", []serialtest.Step{{"\x03", ""}, {"?S", "OK\r\n\x00"}}, false, "?S: reply 4f 4b 0d 0a not terminated by 0x00"},
		{"not a glove's sensor count", []serialtest.Step{{"\x03", ""}, {"?S", "?S\x05\x00"}}, false, "?S: 5 sensors: CyberGlove units have 18 or 22"},
		{"answers ?S only", []serialtest.Step{{"\x03", ""}, {"?S", "?S\x16\x00"}}, true, "?G: no reply"},
	}
	for _, tc := range tests {
		_, err := Identify(serialtest.New(t, tc.steps...), 50*time.Millisecond)
		if err == nil || !strings.Contains(err.Error(), tc.says) || errors.Is(err, ErrNoReply) != tc.noReply {
			t.Errorf("%s: got %v, want an error saying %q (no reply: %v)", tc.name, err, tc.says, tc.noReply)
		}
	}
	if _, err := Identify(serialtest.New(t), 0); err == nil {
		t.Errorf("a zero reply timeout was taken")
	}
}

// FuzzIdentify: whatever a port answers to ^C, ?S, ?G and ?R, Identify
// returns within its timeouts without panicking, and a unit it reports is
// one the protocol allows; when the three replies are well-formed, it
// reports exactly what they say, whatever stale bytes came before them.
func FuzzIdentify(f *testing.F) {
	f.Add([]byte("S\x01\x02"), []byte("?S\x16\x00"), []byte("?G\x03\x00"), []byte("?R\x01\x00"))
	f.Add([]byte{}, []byte("?S\x12\x00"), []byte("?G\x01\x00"), []byte("?R\x00\x00"))
	f.Add([]byte{}, []byte("?e?\x00"), []byte{}, []byte{})
	f.Add([]byte("\x00\x00"), []byte("OK\r\n"), []byte("?G"), []byte("?R\x01"))
	f.Fuzz(func(t *testing.T, stale, s, g, r []byte) {
		port := serialtest.New(t, []serialtest.Step{{"\x03", string(stale)}, {"?S", string(s)}, {"?G", string(g)}, {"?R", string(r)}}...)
		u, err := Identify(port, 20*time.Millisecond)
		if err == nil && (u.Model != "cyberglove" || layout.Check(u.Sensors) != nil) {
			t.Fatalf("reported %+v", u)
		}
		wellFormed := func(b []byte, x byte) bool { return len(b) == 4 && b[0] == '?' && b[1] == x && b[3] == 0 }
		if wellFormed(s, 'S') && (s[2] == 18 || s[2] == 22) && wellFormed(g, 'G') && wellFormed(r, 'R') {
			want := Unit{GloveInfo: devices.GloveInfo{Model: "cyberglove", Sensors: int(s[2]), Right: r[2] == 1}, GloveIn: g[2]&2 != 0}
			if err != nil || u != want {
				t.Fatalf("well-formed replies: got %+v %v, want %+v", u, err, want)
			}
		}
	})
}
