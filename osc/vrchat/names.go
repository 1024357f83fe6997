package vrchat

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gloved/gloved/configs"
	"github.com/gloved/gloved/osc"
)

// Prefix starts every avatar parameter's address.
const Prefix = "/avatar/parameters/"

// Fingers are the fingers' names, thumb first, as {finger} spells them.
var Fingers = [5]string{"thumb", "index", "middle", "ring", "little"}

// Names are the avatar parameters' names, as templates: {hand} is the
// hand's configured name, {finger} the finger's (Fingers), {Hand} and
// {Finger} the same capitalised ("RightIndexCurl" is "{Hand}{Finger}Curl").
// An empty name is not sent.
type Names struct {
	Curl      string `toml:"curl"`      // per finger, float 0-1
	Proximity string `toml:"proximity"` // per finger, float 0-1
	Velocity  string `toml:"velocity"`  // per finger, float -1-1
	Touch     string `toml:"touch"`     // per finger, bool
	Pinch     string `toml:"pinch"`     // per finger but the thumb, bool
	Fist      string `toml:"fist"`      // per hand, bool
}

// DefaultNames are the names unless a config sets others.
var DefaultNames = Names{
	Curl: "gloved/{hand}/{finger}/curl", Proximity: "gloved/{hand}/{finger}/proximity",
	Velocity: "gloved/{hand}/{finger}/velocity", Touch: "gloved/{hand}/{finger}/touch",
	Pinch: "gloved/{hand}/{finger}/pinch", Fist: "gloved/{hand}/fist",
}

// WithDefaults returns the names a config's table gives (parameter key
// to name; "" turns a parameter off), the default for each it leaves
// out. A key that is not a parameter's is an error naming it.
func WithDefaults(table map[string]string) (Names, error) {
	out := DefaultNames
	fields := out.fields()
	for key, v := range table {
		f, ok := fields[key]
		if !ok {
			return out, fmt.Errorf("parameters.%s: not a parameter: want curl, proximity, velocity, touch, pinch or fist", key)
		}
		*f.name = v
	}
	return out, nil
}

// field is one of Names' templates and the fingers it names a
// parameter for (none: one per hand).
type field struct {
	name    *string
	fingers []string
}

func (n *Names) fields() map[string]field {
	all, four := Fingers[:], Fingers[1:]
	return map[string]field{"curl": {&n.Curl, all}, "proximity": {&n.Proximity, all}, "velocity": {&n.Velocity, all},
		"touch": {&n.Touch, all}, "pinch": {&n.Pinch, four}, "fist": {&n.Fist, nil}}
}

// expand returns template's parameter name for hand and finger.
func expand(template, hand, finger string) string {
	return strings.NewReplacer("{hand}", hand, "{Hand}", capital(hand), "{finger}", finger, "{Finger}", capital(finger)).Replace(template)
}

func capital(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// Check reports a name that cannot be used for the hands named hands: one
// that is not an OSC address's part once expanded (printable ASCII, no
// spaces, #*,?[]{}, no empty segment, at most osc.MaxAddressPart bytes),
// a per-finger name without {finger}, a per-hand name with it, a name
// without {hand} when there are two hands or more, and two parameters with one name. The error names the key at fault ("parameters.curl = ...").
func (n Names) Check(hands []string) error {
	seen := map[string]bool{}
	for _, key := range []string{"curl", "proximity", "velocity", "touch", "pinch", "fist"} {
		f := n.fields()[key]
		t := *f.name
		if t == "" {
			continue
		}
		fail := func(want string) error {
			return fmt.Errorf("parameters.%s = %q: want %s", key, configs.Clip(t, 64), want)
		}
		if f.fingers != nil && !strings.Contains(t, "{finger}") && !strings.Contains(t, "{Finger}") {
			return fail("{finger} (or {Finger}) in it: it names a parameter per finger")
		}
		if f.fingers == nil && (strings.Contains(t, "{finger}") || strings.Contains(t, "{Finger}")) {
			return fail("no {finger} (or {Finger}) in it: it names one parameter per hand")
		}
		if len(hands) > 1 && !strings.Contains(t, "{hand}") && !strings.Contains(t, "{Hand}") {
			return fail("{hand} (or {Hand}) in it: two hands would send one parameter")
		}
		fingers := f.fingers
		if fingers == nil {
			fingers = []string{""}
		}
		for _, h := range hands {
			for _, fg := range fingers {
				name := expand(t, h, fg)
				if name == "" || osc.AddressChars(name) != "" || strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/") || strings.Contains(name, "//") {
					return fail("a parameter name: printable ASCII, no spaces or #*,?[]{}, no empty /-separated part, placeholders {hand} {Hand} {finger} {Finger}")
				}
				if len(name) > osc.MaxAddressPart {
					return fail(fmt.Sprintf("a name of at most %d bytes once expanded (one is %d): the address must fit a datagram and the receivers' buffers", osc.MaxAddressPart, len(name)))
				}
				if seen[name] {
					return fail("a name of its own: " + name + " is another parameter's")
				}
				seen[name] = true
			}
		}
	}
	return nil
}
