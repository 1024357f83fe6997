package profile

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/osc"
)

// fake is a profile of a name and keys, with coordinates unless flat.
type fake struct {
	name string
	keys []string
	flat bool
}

func (f fake) Name() string             { return f.name }
func (f fake) Keys() []string           { return f.keys }
func (f fake) DefaultTargets() []string { return nil }

func (f fake) Coords(coords string) (geom.Convention, error) {
	if f.flat {
		return geom.Convention{}, nil
	}
	return Preset(coords)
}

func (f fake) Configure(Settings) (Config, error) { return f, nil }
func (f fake) Methods() []osc.Method {
	return []osc.Method{{Path: "{prefix}/{hand}/" + f.name, Access: osc.Sent}}
}
func (f fake) Open(Run) Output { return nil }

// TestRegisterRefusesTwoOfOneName: a name registered twice, or empty,
// panics (a program's mistake, found at its start); others are looked up
// by name and listed sorted.
func TestRegisterRefusesTwoOfOneName(t *testing.T) {
	r := registry{}
	r.add(fake{name: "zeta"})
	r.add(fake{name: "alpha"})
	for _, bad := range []string{"zeta", "", "two words"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("registering %q did not panic", bad)
				}
			}()
			r.add(fake{name: bad})
		}()
	}
	if got := fmt.Sprint(r.names()); got != "[alpha zeta]" {
		t.Errorf("names %s, want [alpha zeta]", got)
	}
}

// TestOwnNamesTheKeyAndWhoseItIs: a key of the table that is not the
// profile's own is an error naming it, the profile (or profiles) that
// have it or none, and the keys the table may have (coords only where
// the profile has coordinates).
func TestOwnNamesTheKeyAndWhoseItIs(t *testing.T) {
	r := registry{}
	xr, chat, hue := fake{name: "xr"}, fake{name: "chat", keys: []string{"rate_hz", "names"}, flat: true}, fake{name: "hue", keys: []string{"rate_hz"}}
	for _, p := range []Profile{xr, chat, hue} {
		r.add(p)
	}
	tests := []struct {
		p    Profile
		keys Keys
		want string
	}{
		{chat, Keys{"rate_hz": 5.0, "names": map[string]any{}}, ""},
		{chat, nil, ""},
		{xr, Keys{"names": 1.0}, "names: only the chat profile has it; the xr profile's keys are name, targets and coords"},
		{xr, Keys{"rate_hz": 1.0}, "rate_hz: only the chat and hue profiles have it; the xr profile's keys are name, targets and coords"},
		{chat, Keys{"port": int64(9), "rate_hz": 5.0}, "port: unknown key; the chat profile's keys are name, targets, rate_hz and names"},
		{hue, Keys{"zz": 1.0, "aa": 1.0}, "aa: unknown key; the hue profile's keys are name, targets, coords and rate_hz"},
	}
	for _, tc := range tests {
		err := r.own(tc.p, tc.keys)
		if got := fmt.Sprint(err); (tc.want == "" && err != nil) || (tc.want != "" && got != tc.want) {
			t.Errorf("%s with %v: got %v, want %q", tc.p.Name(), tc.keys, err, tc.want)
		}
	}
}

// TestKeysSayWhatTheyWant: each reader takes its type (a number from an
// integer too) and 0 or nothing for a key left out, and names the key,
// its value and what it wants otherwise.
func TestKeysSayWhatTheyWant(t *testing.T) {
	k := Keys{"f": 2.5, "i": int64(3), "big": int64(1) << 40, "s": "x", "l": []any{"a", "b"}, "badl": []any{"a", 2.0},
		"t": map[string]any{"curl": "C"}, "badt": map[string]any{"b": "B", "a": 1.0}}
	num := func(key string) (any, error) { return k.Number(key) }
	integer := func(key string) (any, error) { return k.Int(key) }
	str := func(key string) (any, error) { return k.String(key) }
	list := func(key string) (any, error) { return k.List(key) }
	table := func(key string) (any, error) { return k.Strings(key) }
	tests := []struct {
		read func(string) (any, error)
		key  string
		want any
		says string
	}{
		{num, "f", 2.5, ""}, {num, "i", 3.0, ""}, {num, "none", 0.0, ""}, {num, "s", nil, `s = "x": want a number`},
		{integer, "i", 3, ""}, {integer, "f", nil, "f = 2.5: want a whole number"}, {integer, "big", nil, "big = 1099511627776: want a whole number"},
		{str, "s", "x", ""}, {str, "none", "", ""}, {str, "i", nil, "i = 3: want a string in quotes"},
		{list, "l", []string{"a", "b"}, ""}, {list, "none", []string(nil), ""}, {list, "badl", nil, "badl[1] = 2: want a string in quotes"}, {list, "s", nil, `s = "x": want a list of strings`},
		{table, "t", map[string]string{"curl": "C"}, ""}, {table, "badt", nil, "badt.a = 1: want a string in quotes"}, {table, "f", nil, "f = 2.5: want a table of strings"},
	}
	for _, tc := range tests {
		got, err := tc.read(tc.key)
		if tc.says != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tc.says) {
				t.Errorf("%s: got %v, %v; want an error saying %q", tc.key, got, err, tc.says)
			}
			continue
		}
		if err != nil || fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: got %v, %v; want %v", tc.key, got, err, tc.want)
		}
	}
}

// TestPresetTakesGeomsPresets: coords left out is gloved's own, each of
// geom's presets is itself, and another name is an error naming the key.
func TestPresetTakesGeomsPresets(t *testing.T) {
	if c, err := Preset(""); err != nil || c.Name() != "gloved" {
		t.Errorf("left out: %v, %v", c.Name(), err)
	}
	for _, want := range geom.Conventions {
		if c, err := Preset(want.Name()); err != nil || c.Name() != want.Name() {
			t.Errorf("%s: %v, %v", want.Name(), c.Name(), err)
		}
	}
	if _, err := Preset("blender"); err == nil || !strings.HasPrefix(err.Error(), `coords = "blender": want gloved`) {
		t.Errorf("blender: %v", err)
	}
}

// hidden is a Config that keeps out of the OSCQuery tree.
type hidden struct{ fake }

func (hidden) TreeMethods() []osc.Method { return nil }

// TestTreeMethodsAreTheContractUnlessATreeSaysOtherwise: a Config's part
// of the tree is its Methods, or a Tree's TreeMethods.
func TestTreeMethodsAreTheContractUnlessATreeSaysOtherwise(t *testing.T) {
	if ms := TreeMethods(fake{name: "xr"}); len(ms) != 1 || ms[0].Path != "{prefix}/{hand}/xr" {
		t.Errorf("a Config's tree: %v", ms)
	}
	if ms := TreeMethods(hidden{fake{name: "chat"}}); ms != nil {
		t.Errorf("a Tree's: %v", ms)
	}
}
