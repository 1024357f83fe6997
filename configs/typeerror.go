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
		said = fmt.Sprintf("a table is wanted ({ key = value, ... } or a [header]), not %s", tomlType(found))
	case incompatible.MatchString(what):
		t := incompatible.FindStringSubmatch(what)
		said = fmt.Sprintf("%s is wanted, not %s", destType(t[2]), tomlType(t[1]))
	case arrayLength.MatchString(what):
		n := arrayLength.FindStringSubmatch(what)
		said = fmt.Sprintf("an array of %s values is wanted, not of %s", n[1], n[2])
	default:
		return msg, false
	}
	return fmt.Sprintf("line %s: %s: %s (docs/configuration.md gives each key's type)", line, Clip(key, maxKeyLen), said), true
}

// tomlType names a decoded TOML value's Go type as TOML calls it.
func tomlType(goType string) string {
	switch {
	case goType == "string":
		return "a string"
	case strings.HasPrefix(goType, "int"):
		return "an integer"
	case strings.HasPrefix(goType, "float"):
		return "a number with a fraction"
	case goType == "bool":
		return "true or false"
	case strings.HasPrefix(goType, "map["):
		return "a table"
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	case strings.HasPrefix(goType, "time.") || strings.HasPrefix(goType, "toml.Local"):
		return "a date or time"
	}
	return "a " + goType
}

// destType names a destination's reflect.Kind as TOML calls it.
func destType(kind string) string {
	switch {
	case kind == "string":
		return "a string"
	case strings.HasPrefix(kind, "int") || strings.HasPrefix(kind, "uint") || kind == "integer":
		return "an integer"
	case strings.HasPrefix(kind, "float"):
		return "a number"
	case kind == "bool" || kind == "boolean":
		return "true or false"
	case kind == "slice" || kind == "array":
		return "an array"
	case kind == "struct" || kind == "map":
		return "a table"
	}
	return "a " + kind
}
