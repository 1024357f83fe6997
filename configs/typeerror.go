package configs

import (
	"fmt"
	"regexp"
	"strings"
)

// The decoder's words for a value of the wrong type name Go types
// ("type mismatch for session.SceneFile: expected table but found
// string"), which say nothing to someone writing TOML. typeError rewords
// them in TOML's terms; any other message is left as it is.
var (
	decoderAt    = regexp.MustCompile(`^toml: line (\d+) \(last key "([^"]*)"\): (.*)$`)
	mismatch     = regexp.MustCompile(`^type mismatch for .*: expected table but found (\S+)$`)
	incompatible = regexp.MustCompile(`^incompatible types: TOML value has type (\S+); destination has type (\S+)$`)
	arrayLength  = regexp.MustCompile(`^expected array length (\d+); got TOML array of length (\d+)$`)
)

// typeError returns the decoder's message msg reworded, and whether it
// was one of the type errors it knows.
func typeError(msg string) (string, bool) {
	m := decoderAt.FindStringSubmatch(msg)
	if m == nil {
		return msg, false
	}
	line, key, what := m[1], m[2], m[3]
	var said string
	switch {
	case mismatch.MatchString(what):
		found := mismatch.FindStringSubmatch(what)[1]
		said = fmt.Sprintf("a table is wanted ({ key = value, ... } or a [header]), not %s", typeWords(found))
	case incompatible.MatchString(what):
		t := incompatible.FindStringSubmatch(what)
		said = fmt.Sprintf("%s is wanted, not %s", typeWords(t[2]), typeWords(t[1]))
	case arrayLength.MatchString(what):
		n := arrayLength.FindStringSubmatch(what)
		said = fmt.Sprintf("an array of %s values is wanted, not of %s", n[1], n[2])
	default:
		return msg, false
	}
	return fmt.Sprintf("line %s: %s: %s (docs/configuration.md gives each key's type)", line, Clip(key, maxKeyLen), said), true
}

// typeWords names, as TOML calls it, a type the decoder's messages give:
// a decoded value's Go type ("float64", "map[string]any") or a
// destination's kind ("integer", "float", "struct"). A value with a
// fraction is said so: it is what an integer key refuses.
func typeWords(t string) string {
	switch {
	case t == "string":
		return "a string"
	case strings.HasPrefix(t, "int") || strings.HasPrefix(t, "uint"):
		return "an integer"
	case t == "float64" || t == "float32":
		return "a number with a fraction"
	case strings.HasPrefix(t, "float"):
		return "a number"
	case t == "bool" || t == "boolean":
		return "true or false"
	case strings.HasPrefix(t, "[]") || t == "slice" || t == "array":
		return "an array"
	case strings.HasPrefix(t, "map") || t == "struct":
		return "a table"
	case strings.HasPrefix(t, "time.") || strings.HasPrefix(t, "toml.Local"):
		return "a date or time"
	}
	return "a " + t
}
