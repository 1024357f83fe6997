package profile

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gloved/gloved/configs"
)

// registry holds profiles by name.
type registry map[string]Profile

// registered are the profiles the program's packages registered.
var registered = registry{}

// Register makes p a profile an [[osc.profile]] table can name. It is
// called from the init of p's package, before the daemon reads a config;
// an empty name or a name registered twice is a programming error, and
// panics.
func Register(p Profile) { registered.add(p) }

func (r registry) add(p Profile) {
	name := p.Name()
	if name == "" || strings.ContainsAny(name, " \t\n\"") {
		panic(fmt.Sprintf("profile: a profile named %q: want a word", name))
	}
	if _, dup := r[name]; dup {
		panic(fmt.Sprintf("profile: two profiles named %q", name))
	}
	r[name] = p
}

// Lookup returns the profile registered as name.
func Lookup(name string) (Profile, bool) {
	p, ok := registered[name]
	return p, ok
}

// Names returns the registered profiles' names, sorted.
func Names() []string { return registered.names() }

func (r registry) names() []string { return slices.Sorted(maps.Keys(r)) }

// Own checks that every key of keys is one of p's own (Profile.Keys); the
// error names the first, sorted, that is not: another profile's ("rate_hz:
// only the vrchat profile has it; ...") or none's ("port: unknown key;
// ..."), and says which keys p's table has.
func Own(p Profile, keys Keys) error { return registered.own(p, keys) }

func (r registry) own(p Profile, keys Keys) error {
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if slices.Contains(p.Keys(), k) {
			continue
		}
		var others []string
		for _, name := range r.names() {
			if slices.Contains(r[name].Keys(), k) {
				others = append(others, name)
			}
		}
		has := "unknown key"
		switch len(others) {
		case 0:
		case 1:
			has = "only the " + others[0] + " profile has it"
		default:
			has = "only the " + configs.List(others, "and") + " profiles have it"
		}
		return fmt.Errorf("%s: %s; the %s profile's keys are %s", k, has, p.Name(), configs.List(TableKeys(p), "and"))
	}
	return nil
}

// TableKeys are the keys a table naming p may have: name, targets, coords
// for a profile that sends positions or rotations, then p's own.
func TableKeys(p Profile) []string {
	out := []string{"name", "targets"}
	if c, err := p.Coords(""); err == nil && c.Name() != "" {
		out = append(out, "coords")
	}
	return append(out, p.Keys()...)
}
