package oscquery

import (
	"math"

	"github.com/gloved/gloved/osc"
)

// Node is one node of an OSCQuery address space, as the proposal's JSON
// object describes it: a container (Contents) or a method (Type), or,
// where an address is both, both. Its fields are the attributes gloved
// serves.
type Node struct {
	FullPath    string `json:"FULL_PATH"`
	Description string `json:"DESCRIPTION,omitempty"`
	// Access is 0 for a container, 1 for what gloved sends (apps read
	// it), 2 for what it accepts, 3 for both.
	Access int    `json:"ACCESS"`
	Type   string `json:"TYPE,omitempty"`
	// Range and Unit hold one entry per type tag, null where an argument
	// has none; they are left out when no argument has one.
	Range    []*Range         `json:"RANGE,omitempty"`
	Unit     []*string        `json:"UNIT,omitempty"`
	Contents map[string]*Node `json:"CONTENTS,omitempty"`
}

// Range is one argument's RANGE entry: its minimum, maximum, or the only
// values it takes.
type Range struct {
	Min  *float64 `json:"MIN,omitempty"`
	Max  *float64 `json:"MAX,omitempty"`
	Vals []string `json:"VALS,omitempty"`
}

// container reports whether n has sub-nodes.
func (n *Node) container() bool { return len(n.Contents) > 0 }

// setArgs fills the method attributes from args: the type tags, and the
// ranges and units if any argument has one.
func (n *Node) setArgs(args []osc.Arg) {
	var tags []byte
	ranges := make([]*Range, len(args))
	units := make([]*string, len(args))
	anyRange, anyUnit := false, false
	for i, a := range args {
		tags = append(tags, a.Type)
		if r := rangeOf(a.Range); r != nil {
			ranges[i], anyRange = r, true
		}
		if a.Unit != "" {
			u := a.Unit
			units[i], anyUnit = &u, true
		}
	}
	n.Type = string(tags)
	if anyRange {
		n.Range = ranges
	}
	if anyUnit {
		n.Unit = units
	}
}

// rangeOf is r as a RANGE entry (nil for none).
func rangeOf(r *osc.Range) *Range {
	if r == nil || !r.HasMin && !r.HasMax && len(r.Values) == 0 {
		return nil
	}
	out := &Range{Vals: r.Values}
	if r.HasMin && !math.IsInf(r.Min, 0) {
		v := r.Min
		out.Min = &v
	}
	if r.HasMax && !math.IsInf(r.Max, 0) {
		v := r.Max
		out.Max = &v
	}
	return out
}
