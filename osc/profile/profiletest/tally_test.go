package profiletest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/osctest"
	"github.com/gloved/gloved/osc/profile"
	"github.com/gloved/gloved/osc/profile/profiletest"
)

// TestTallyConforms: the test profile keeps to the registry's rules and
// its contract, every frame or one in three.
func TestTallyConforms(t *testing.T) {
	osctest.Conform(t, profiletest.Name, nil)
	osctest.Conform(t, profiletest.Name, profile.Keys{"every": int64(3)})
}

// TestTallyChecksEvery: every is a whole number of frames from 1 to
// MaxEvery; another value is an error naming the key.
func TestTallyChecksEvery(t *testing.T) {
	p, _ := profile.Lookup(profiletest.Name)
	for _, tc := range []struct {
		every any
		says  string
	}{
		{int64(1), ""}, {int64(profiletest.MaxEvery), ""},
		{int64(0), "every = 0: want 1 to 1000"}, {int64(1001), "every = 1001"}, {2.5, "every = 2.5: want a whole number"}, {"2", `every = "2"`},
	} {
		_, err := p.Configure(profile.Settings{Keys: profile.Keys{"every": tc.every}, Hands: []string{"right"}})
		if (tc.says == "") != (err == nil) || (err != nil && !strings.HasPrefix(err.Error(), tc.says)) {
			t.Errorf("every = %v: got %v, want %q", tc.every, err, tc.says)
		}
	}
}

// TestTallySendsEveryNthFrame: with every = 3, frames 1, 4, 7 ... of a
// hand are sent and the others write nothing.
func TestTallySendsEveryNthFrame(t *testing.T) {
	p, _ := profile.Lookup(profiletest.Name)
	cfg, err := p.Configure(profile.Settings{Keys: profile.Keys{"every": int64(3)}, Hands: []string{"right"}})
	if err != nil {
		t.Fatal(err)
	}
	out := cfg.Open(profile.Run{Prefix: "/gloved", Hands: []string{"right"}})
	var enc profile.Encoder
	var sent []int32
	var w osc.Writer
	osctest.Run(t, osctest.Recording(), 10, func(f osctest.Frame) {
		if enc == nil {
			enc = out.Hand(0, f.Pipeline.Hand())
		}
		enc.Frame(&w, f.Frame, f.At)
		if len(w.Packets()) > 0 {
			sent = append(sent, f.Seq)
		}
	})
	if fmt.Sprint(sent) != "[0 3 6 9]" {
		t.Errorf("frames sent %v, want [0 3 6 9]", sent)
	}
}
