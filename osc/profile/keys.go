package profile

import (
	"fmt"
	"maps"
	"math"
	"slices"
)

// Keys are a profile's own keys in an [[osc.profile]] table, as TOML
// decoded them: string, int64, float64, bool, []any, map[string]any. Its
// methods read one key each, 0 or empty when the table leaves it out; an
// error names the key and says what it wants ("rate_hz = \"fast\": want
// a number").
type Keys map[string]any

// Number returns key's number: a float, or an integer.
func (k Keys) Number(key string) (float64, error) {
	switch v := k[key].(type) {
	case nil:
		return 0, nil
	case float64:
		return v, nil
	case int64:
		return float64(v), nil
	}
	return 0, want(key, k[key], "a number")
}

// Int returns key's integer (one within int32's range).
func (k Keys) Int(key string) (int, error) {
	switch v := k[key].(type) {
	case nil:
		return 0, nil
	case int64:
		if v >= math.MinInt32 && v <= math.MaxInt32 {
			return int(v), nil
		}
	}
	return 0, want(key, k[key], "a whole number")
}

// String returns key's string.
func (k Keys) String(key string) (string, error) {
	switch v := k[key].(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	}
	return "", want(key, k[key], "a string in quotes")
}

// List returns key's list of strings.
func (k Keys) List(key string) ([]string, error) {
	switch v := k[key].(type) {
	case nil:
		return nil, nil
	case []any:
		out := make([]string, len(v))
		for i, x := range v {
			s, ok := x.(string)
			if !ok {
				return nil, want(fmt.Sprintf("%s[%d]", key, i), x, "a string in quotes")
			}
			out[i] = s
		}
		return out, nil
	}
	return nil, want(key, k[key], "a list of strings, such as [\"127.0.0.1:9000\"]")
}

// Strings returns key's table of strings (nil when left out).
func (k Keys) Strings(key string) (map[string]string, error) {
	switch v := k[key].(type) {
	case nil:
		return nil, nil
	case map[string]any:
		out := make(map[string]string, len(v))
		for _, name := range slices.Sorted(maps.Keys(v)) {
			s, ok := v[name].(string)
			if !ok {
				return nil, want(key+"."+name, v[name], "a string in quotes")
			}
			out[name] = s
		}
		return out, nil
	}
	return nil, want(key, k[key], "a table of strings, such as { curl = \"Curl\" }")
}

// want is the error of key holding v, not what.
func want(key string, v any, what string) error {
	if s, ok := v.(string); ok {
		return fmt.Errorf("%s = %q: want %s", key, s, what)
	}
	return fmt.Errorf("%s = %v: want %s", key, v, what)
}
