package vrchat

import (
	"strings"
	"testing"

	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/profile"
)

// TestProfileTakesItsKeys: a table without keys is the defaults, with
// the daemon's band; rate_hz, approach_mps and parameters are read and
// checked, an error naming the key; coords is refused; the avatar
// parameters stay out of the OSCQuery tree and a status sends nothing.
func TestProfileTakesItsKeys(t *testing.T) {
	p, _ := profile.Lookup(Name)
	hands := []string{"right", "left"}
	cfg, err := p.Configure(profile.Settings{Hands: hands})
	if err != nil {
		t.Fatal(err)
	}
	out := cfg.Open(profile.Run{Hands: hands, Band: 0.02}).(*output)
	if o := out.o; o.Names != DefaultNames || o.Rate != 0 || o.Approach != 0 || o.Band != 0.02 {
		t.Errorf("defaults %+v", o)
	}
	cfg, err = p.Configure(profile.Settings{Hands: hands, Keys: profile.Keys{"rate_hz": int64(5), "approach_mps": 0.25,
		"parameters": map[string]any{"fist": "", "curl": "{Hand}{Finger}Curl"}}})
	if err != nil {
		t.Fatal(err)
	}
	if o := cfg.(config).o; o.Rate != 5 || o.Approach != 0.25 || o.Names.Fist != "" || o.Names.Curl != "{Hand}{Finger}Curl" {
		t.Errorf("set %+v", o)
	}
	for _, tc := range []struct {
		keys profile.Keys
		says string
	}{
		{profile.Keys{"rate_hz": 0.5}, "rate_hz = 0.5: want 1 to 50"},
		{profile.Keys{"approach_mps": 11.0}, "approach_mps = 11: want a speed above 0 and at most 10"},
		{profile.Keys{"rate_hz": 0.0}, "rate_hz = 0: want 1 to 50"}, // written: not the default
		{profile.Keys{"approach_mps": int64(0)}, "approach_mps = 0: want a speed above 0"},
		{profile.Keys{"parameters": map[string]any{"curl": "Curl"}}, `parameters.curl = "Curl": want {finger}`},
		{profile.Keys{"parameters": "Curl"}, `parameters = "Curl": want a table of strings`},
	} {
		if _, err := p.Configure(profile.Settings{Hands: hands, Keys: tc.keys}); err == nil || !strings.HasPrefix(err.Error(), tc.says) {
			t.Errorf("%v: got %v, want %q", tc.keys, err, tc.says)
		}
	}
	if c, err := p.Coords("unity"); err == nil || c.Name() != "" {
		t.Errorf("coords unity: %v, %v", c.Name(), err)
	}
	if ms := profile.TreeMethods(cfg); ms != nil || len(cfg.Methods()) != 25 {
		t.Errorf("the tree holds %d methods, the contract %d", len(ms), len(cfg.Methods()))
	}
	var w osc.Writer
	w.Begin(0)
	out.Status(&w, 0, profile.Status{State: "streaming", Tracked: true})
	if len(w.Packets()) != 0 {
		t.Errorf("a status sent %d packets", len(w.Packets()))
	}
}
