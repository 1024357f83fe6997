package gltfdoc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// A glTF document is walked in place rather than decoded by reflection:
// encoding/json grows slices as it goes and has no way to size a record to
// what is needed, so a node table of "{}" cost 80 bytes per 3 bytes of
// file. The walker runs only on input json.Valid has accepted, so it needs
// to find the ends of values, not to check them.

// errNotArray and errNotObject report a member of the wrong JSON type.
var (
	errNotArray  = errors.New("want an array")
	errNotObject = errors.New("want an object")
)

// jsonSpace reports JSON whitespace.
func jsonSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && jsonSpace(b[i]) {
		i++
	}
	return i
}

// valueLen returns the length of the valid JSON value at the start of b.
func valueLen(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	if c := b[0]; c != '"' && c != '[' && c != '{' { // a number, true, false or null
		i := 0
		for i < len(b) && !jsonSpace(b[i]) && b[i] != ',' && b[i] != ']' && b[i] != '}' {
			i++
		}
		return i
	}
	depth, str := 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case str && c == '\\':
			i++
		case str:
			str = c != '"'
		case c == '"':
			str = true
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
		}
		if depth == 0 && !str {
			return i + 1
		}
	}
	return len(b)
}

// eachElement calls f with each element of the JSON array b.
func eachElement(b []byte, f func(i int, v []byte) error) error {
	if len(b) == 0 || b[0] != '[' {
		return errNotArray
	}
	i := skipSpace(b, 1)
	for k := 0; i < len(b) && b[i] != ']'; k++ {
		n := valueLen(b[i:])
		if err := f(k, b[i:i+n]); err != nil {
			return err
		}
		i = skipSpace(b, i+n)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
		}
	}
	return nil
}

// countElements returns the length of the JSON array b.
func countElements(b []byte) (int, error) {
	n := 0
	err := eachElement(b, func(int, []byte) error { n++; return nil })
	return n, err
}

// eachMember calls f with the key and value of each member of the JSON
// object b whose value is not null (glTF uses null for absent).
func eachMember(b []byte, f func(key, v []byte) error) error {
	if len(b) == 0 || b[0] != '{' {
		return errNotObject
	}
	i := skipSpace(b, 1)
	for i < len(b) && b[i] != '}' {
		n := valueLen(b[i:])
		key := b[i : i+n]
		i = skipSpace(b, i+n)
		i = skipSpace(b, i+1) // the colon
		n = valueLen(b[i:])
		v := b[i : i+n]
		i = skipSpace(b, i+n)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
		}
		if string(v) == "null" {
			continue
		}
		k := key[1 : len(key)-1]
		if bytes.IndexByte(k, '\\') >= 0 { // rare: decode the escapes
			s, err := jsonString(key)
			if err != nil {
				return err
			}
			k = []byte(s)
		}
		if err := f(k, v); err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
	}
	return nil
}

// jsonString decodes a JSON string.
func jsonString(v []byte) (string, error) {
	if len(v) < 2 || v[0] != '"' {
		return "", errors.New("want a string")
	}
	if bytes.IndexByte(v, '\\') < 0 {
		return string(v[1 : len(v)-1]), nil
	}
	var s string
	err := json.Unmarshal(v, &s)
	return s, err
}

// jsonInt decodes an integer from 0 to 2^31-1: an index, a count, or a
// byte offset or length (2^31-1 bytes is more than a file gloved reads).
func jsonInt(v []byte) (int32, error) {
	i, err := strconv.ParseInt(string(v), 10, 32)
	if err != nil || i < 0 {
		return 0, fmt.Errorf("%.24s: want an integer from 0 to 2^31-1", v)
	}
	return int32(i), nil
}

// jsonFloats decodes an array of exactly len(out) finite numbers.
func jsonFloats(v []byte, out []float64) error {
	n := 0
	err := eachElement(v, func(i int, e []byte) error {
		x, err := strconv.ParseFloat(string(e), 64)
		if err != nil || math.IsInf(x, 0) {
			return fmt.Errorf("%.24s: want a finite number", e)
		}
		if i < len(out) {
			out[i] = x
		}
		n++
		return nil
	})
	if err == nil && n != len(out) {
		err = fmt.Errorf("%d numbers, want %d", n, len(out))
	}
	return err
}
