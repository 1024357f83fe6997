package oscquery

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// CheckJSON checks an OSCQuery tree, as a client reads it, against what
// the proposal requires of its structure beyond what a JSON schema says:
// every node's FULL_PATH is the path it is found at; a node is a
// container (CONTENTS) or a method (TYPE) or both; ACCESS is 0 to 3, 0
// only without TYPE; TYPE is OSC type tags; RANGE and UNIT hold one entry
// per type tag (or one for all), RANGE entries null or objects of MIN,
// MAX and VALS, UNIT entries null or strings. It returns every fault
// found, joined.
func CheckJSON(doc []byte) error {
	var root map[string]any
	if err := json.Unmarshal(doc, &root); err != nil {
		return fmt.Errorf("oscquery: the tree is not a JSON object: %w", err)
	}
	var errs []error
	checkNode(root, "/", &errs)
	return errors.Join(errs...)
}

// typeTags are the OSC type tags the proposal lists.
const typeTags = "ifsbhtdScrmTFNI[]"

func checkNode(n map[string]any, path string, errs *[]error) {
	fail := func(format string, a ...any) {
		*errs = append(*errs, fmt.Errorf("oscquery: %s: %s", path, fmt.Sprintf(format, a...)))
	}
	if n["FULL_PATH"] != path {
		fail("FULL_PATH is %v", n["FULL_PATH"])
	}
	typ, isMethod := n["TYPE"].(string)
	contents, isContainer := n["CONTENTS"].(map[string]any)
	if _, has := n["TYPE"]; has && (!isMethod || typ == "" || strings.Trim(typ, typeTags) != "") {
		fail("TYPE %v is not OSC type tags", n["TYPE"])
	}
	if _, has := n["CONTENTS"]; has && !isContainer {
		fail("CONTENTS is not an object")
	}
	if !isMethod && !isContainer {
		fail("neither a method (TYPE) nor a container (CONTENTS)")
	}
	if v, has := n["ACCESS"]; has {
		a, ok := v.(float64)
		switch {
		case !ok || a != float64(int(a)) || a < 0 || a > 3:
			fail("ACCESS %v is not 0 to 3", v)
		case a == 0 && isMethod:
			fail("ACCESS 0 for a method of TYPE %q", typ)
		}
	}
	args := topLevel(typ)
	checkEntries(n, "RANGE", args, fail, func(e any) bool {
		r, ok := e.(map[string]any)
		if e == nil {
			return true
		}
		for k := range r {
			if k != "MIN" && k != "MAX" && k != "VALS" {
				return false
			}
		}
		return ok && len(r) > 0
	})
	checkEntries(n, "UNIT", args, fail, func(e any) bool {
		_, ok := e.(string)
		return ok || e == nil
	})
	for name, c := range contents {
		sub := strings.TrimSuffix(path, "/") + "/" + name
		if name == "" || strings.ContainsAny(name, notAddress) {
			fail("a sub-node named %q", name)
		}
		if cm, ok := c.(map[string]any); ok {
			checkNode(cm, sub, errs)
		} else {
			fail("sub-node %q is not an object", name)
		}
	}
}

// topLevel counts the arguments of type tags at the outer level: a
// bracketed array ("[ff]") is one, as the per-argument arrays nest it.
func topLevel(typ string) int {
	n, depth := 0, 0
	for _, c := range typ {
		switch c {
		case '[':
			if depth == 0 {
				n++
			}
			depth++
		case ']':
			depth--
		default:
			if depth == 0 {
				n++
			}
		}
	}
	return n
}

// checkEntries checks attribute attr: an array of one valid entry per
// argument, or a single valid entry for all.
func checkEntries(n map[string]any, attr string, args int, fail func(string, ...any), valid func(any) bool) {
	v, has := n[attr]
	if !has {
		return
	}
	arr, isArr := v.([]any)
	if !isArr {
		if !valid(v) {
			fail("%s %v", attr, v)
		}
		return
	}
	if len(arr) != args {
		fail("%s has %d entries for %d type tags", attr, len(arr), args)
	}
	for i, e := range arr {
		if !nested(e, valid) {
			fail("%s[%d] = %v", attr, i, e)
		}
	}
}

// nested reports whether e is a valid entry, or an array (a bracketed
// group's) of them.
func nested(e any, valid func(any) bool) bool {
	arr, ok := e.([]any)
	if !ok {
		return valid(e)
	}
	for _, x := range arr {
		if !nested(x, valid) {
			return false
		}
	}
	return true
}
