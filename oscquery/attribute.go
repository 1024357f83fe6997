package oscquery

import (
	"errors"
	"fmt"
	"net/url"
)

// Attribute support: what a query for each of the proposal's attributes
// gets from gloved.
type support int

const (
	unknown     support = iota // not an attribute of the proposal: 400
	served                     // answered from the node ({} where the node has none)
	unsupported                // an attribute gloved does not serve: 204
)

// attributes are the proposal's query attributes and gloved's support of
// each. VALUE is not served: every address gloved sends is a stream of
// events and frames, with no current value to read, and nothing it
// accepts is kept as a value either.
var attributes = map[string]support{
	"FULL_PATH": served, "CONTENTS": served, "TYPE": served, "ACCESS": served,
	"RANGE": served, "DESCRIPTION": served, "UNIT": served, "HOST_INFO": served,
	"VALUE": unsupported, "TAGS": unsupported, "EXTENDED_TYPE": unsupported,
	"CRITICAL": unsupported, "CLIPMODE": unsupported, "OVERLOADS": unsupported,
	"HTML": unsupported,
}

// Extensions is HOST_INFO's EXTENSIONS: the optional attributes and
// features, and whether gloved serves each.
func Extensions() map[string]bool {
	return map[string]bool{
		"ACCESS": true, "RANGE": true, "DESCRIPTION": true, "UNIT": true,
		"VALUE": false, "TAGS": false, "EXTENDED_TYPE": false, "CRITICAL": false,
		"CLIPMODE": false, "OVERLOADS": false, "HTML": false,
		"LISTEN": false, "PATH_CHANGED": false, "PATH_RENAMED": false,
		"PATH_ADDED": false, "PATH_REMOVED": false,
	}
}

// ErrQuery is a query string that is not one attribute.
var ErrQuery = errors.New("want one attribute, such as ?TYPE or ?HOST_INFO")

// ParseQuery reads a request's raw query string: "" for none, else the
// one attribute it names ("TYPE" of "?TYPE"). An attribute is not checked
// against the proposal's list here (the node's answer is 400 for one that
// is not in it): only that the query is a single name.
func ParseQuery(raw string) (string, error) {
	if raw == "" {
		return "", nil
	}
	s, err := url.QueryUnescape(raw)
	if err != nil {
		return "", fmt.Errorf("oscquery: query %q: %w", raw, ErrQuery)
	}
	if len(s) == 0 || len(s) > 32 {
		return "", fmt.Errorf("oscquery: query %q: %w", raw, ErrQuery)
	}
	for _, c := range []byte(s) {
		if !(c >= 'A' && c <= 'Z' || c == '_') {
			return "", fmt.Errorf("oscquery: query %q: %w", raw, ErrQuery)
		}
	}
	return s, nil
}

// attribute returns the JSON object answering a query for attr on n:
// {"ATTR": value}, or {} where n has none (a container's TYPE, a method's
// CONTENTS, a method without units' UNIT).
func attribute(n *Node, attr string) map[string]any {
	out := map[string]any{}
	switch attr {
	case "FULL_PATH":
		out[attr] = n.FullPath
	case "ACCESS":
		out[attr] = n.Access
	case "DESCRIPTION":
		if n.Description != "" {
			out[attr] = n.Description
		}
	case "TYPE":
		if n.Type != "" {
			out[attr] = n.Type
		}
	case "RANGE":
		if n.Range != nil {
			out[attr] = n.Range
		}
	case "UNIT":
		if n.Unit != nil {
			out[attr] = n.Unit
		}
	case "CONTENTS":
		if n.container() {
			out[attr] = n.Contents
		}
	}
	return out
}
