package osc

import (
	"fmt"
	"math"
	"strings"
)

// Access says which way a method's messages go, as OSCQuery's ACCESS
// attribute does: Sent (1, "the value may only be retrieved": gloved sends
// it, apps read it) or Accepted (2, "may only be set": apps send it to
// gloved).
type Access int

// The directions of a method.
const (
	Sent     Access = 1
	Accepted Access = 2
)

// Arg is one argument of a message.
type Arg struct {
	// Type is the OSC type tag: 'i' int32, 'f' float32, 's' string, or
	// 'T' for a bool (sent as the tag T or F, with no data).
	Type byte
	Name string
	// Unit is the OSCQuery proposal's unit name (units.md), such as
	// "distance.m", "angle.radian" or "time.ms"; empty when it has none.
	Unit string
	// Range bounds the value; nil when it is unbounded.
	Range *Range
	// Optional says a message may end before this argument; only the
	// last of a method's Args may be optional, and not with Each.
	Optional bool
}

// Range is the values an argument takes: at least Min where HasMin, at
// most Max where HasMax, or one of Values.
type Range struct {
	Min, Max       float64
	HasMin, HasMax bool
	Values         []string
}

// Between is the range Min to Max.
func Between(min, max float64) *Range { return &Range{Min: min, Max: max, HasMin: true, HasMax: true} }

// AtLeast is the range of values from min up.
func AtLeast(min float64) *Range { return &Range{Min: min, HasMin: true} }

// OneOf is the range of the given values.
func OneOf(values ...string) *Range { return &Range{Values: values} }

// Per says what a method's repeated group of arguments repeats for.
type Per int

// The repetitions of a group.
const (
	PerJoint Per = iota + 1 // once per joint angle, in handmodel.Joint order
	PerLink                 // once per link, in handmodel.Link order
)

// Method is one address of a contract: where it is, which way it goes,
// its arguments, and what it means. A contract described this way is the
// single source of its README table, its OSCQuery tree and the tests that
// check what goes on the wire.
type Method struct {
	// Path is the address, with "{prefix}" for the configured prefix and
	// "{hand}" for a hand's name: "{prefix}/{hand}/frame".
	Path   string
	Access Access
	// Args are the arguments, in order; when Each is set they are
	// followed by Each repeated for every joint or link.
	Args []Arg
	Each []Arg
	Per  Per
	// Description says what the message means, in plain text (an
	// OSCQuery DESCRIPTION; the README's table).
	Description string
	// When says when it is sent, or what answers it.
	When string
}

// Shape is what a hand's repeated groups repeat for.
type Shape struct {
	Joints, Links int
}

// ForHand reports whether the method is one hand's ({hand} in its path).
func (m *Method) ForHand() bool { return strings.Contains(m.Path, "{hand}") }

// Address is the method's address under prefix for hand (ignored by a
// method that is not a hand's).
func (m *Method) Address(prefix, hand string) string {
	return strings.NewReplacer("{prefix}", prefix, "{hand}", hand).Replace(m.Path)
}

// Expand returns the method's arguments for a hand of shape s: Args, then
// Each once per joint or link.
func (m *Method) Expand(s Shape) []Arg {
	n := 0
	switch m.Per {
	case PerJoint:
		n = s.Joints
	case PerLink:
		n = s.Links
	}
	out := make([]Arg, 0, len(m.Args)+n*len(m.Each))
	out = append(out, m.Args...)
	for range n {
		out = append(out, m.Each...)
	}
	return out
}

// TypeTags returns the OSC type tag string of the method's messages for a
// hand of shape s, without the leading comma; a bool is written T.
func (m *Method) TypeTags(s Shape) string {
	var b strings.Builder
	for _, a := range m.Expand(s) {
		b.WriteByte(a.Type)
	}
	return b.String()
}

// Required returns how many of the method's arguments for a hand of
// shape s a message must hold: all but the optional ones at the end.
func (m *Method) Required(s Shape) int {
	n := len(m.Expand(s))
	for i := len(m.Args) - 1; i >= 0 && m.Args[i].Optional && len(m.Each) == 0; i-- {
		n--
	}
	return n
}

// Matches reports whether a message with type tags tags (without the
// leading comma) fits the method for a hand of shape s: the same tags,
// where a bool may be T or F, optional ones at the end left out or not.
func (m *Method) Matches(tags string, s Shape) bool {
	want := m.TypeTags(s)
	if len(tags) < m.Required(s) || len(tags) > len(want) {
		return false
	}
	for i := range len(tags) {
		if tags[i] != want[i] && !(want[i] == 'T' && tags[i] == 'F') {
			return false
		}
	}
	return true
}

// check reports a method that cannot be described (tests use it on every
// contract).
func (m *Method) check() error {
	if !strings.HasPrefix(m.Path, "{prefix}/") && !strings.HasPrefix(m.Path, "/") {
		return fmt.Errorf("osc: method %q: a path starts with / or {prefix}/", m.Path)
	}
	if m.Access != Sent && m.Access != Accepted {
		return fmt.Errorf("osc: method %s: access %d", m.Path, m.Access)
	}
	if (len(m.Each) > 0) != (m.Per != 0) {
		return fmt.Errorf("osc: method %s: a repeated group needs both Each and Per", m.Path)
	}
	if m.Description == "" || m.When == "" {
		return fmt.Errorf("osc: method %s: no description or no when", m.Path)
	}
	for i, a := range m.Args {
		if a.Optional && (len(m.Each) > 0 || i+1 < len(m.Args) && !m.Args[i+1].Optional) {
			return fmt.Errorf("osc: method %s: optional argument %s before a required one", m.Path, a.Name)
		}
	}
	for _, a := range append(append([]Arg(nil), m.Args...), m.Each...) {
		if !strings.ContainsRune("ifsT", rune(a.Type)) || a.Name == "" {
			return fmt.Errorf("osc: method %s: argument %q of type %q", m.Path, a.Name, a.Type)
		}
		if r := a.Range; r != nil && (r.HasMin && !finiteBound(r.Min) || r.HasMax && !finiteBound(r.Max) || r.HasMin && r.HasMax && r.Min > r.Max) {
			return fmt.Errorf("osc: method %s: argument %s: range %v to %v", m.Path, a.Name, r.Min, r.Max)
		}
	}
	return nil
}

// finiteBound reports whether a range's bound is a number: NaN would
// compare false with everything, and OSCQuery's RANGE has no infinity.
func finiteBound(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
