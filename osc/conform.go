package osc

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// CheckArgs reports the first of args, a message's arguments as an OSC
// decoder gives them (go-osc's int32, float32, string and bool), that
// does not fit the method for a hand of shape s: an argument missing
// (but an optional one at the end) or extra, of another type, a float
// that is NaN or infinite (the contract never sends one), a number
// outside its Range's bounds, or a value not among its Range's Values.
// The tests check what goes on the wire with it.
func (m *Method) CheckArgs(args []any, s Shape) error {
	want := m.Expand(s)
	if req := m.Required(s); len(args) < req || len(args) > len(want) {
		if req < len(want) {
			return fmt.Errorf("osc: %s: %d arguments, the method has %d to %d", m.Path, len(args), req, len(want))
		}
		return fmt.Errorf("osc: %s: %d arguments, the method has %d", m.Path, len(args), len(want))
	}
	for i := range args {
		if err := want[i].checkValue(args[i]); err != nil {
			return fmt.Errorf("osc: %s: argument %d (%s): %w", m.Path, i, want[i].Name, err)
		}
	}
	return nil
}

// checkValue reports a value v that is not of a's type or not in its
// range.
func (a *Arg) checkValue(v any) error {
	var x float64
	switch v := v.(type) {
	case int32:
		if a.Type != 'i' {
			return fmt.Errorf("the int32 %d where the method has type %q", v, a.Type)
		}
		x = float64(v)
	case float32:
		if a.Type != 'f' {
			return fmt.Errorf("the float32 %v where the method has type %q", v, a.Type)
		}
		x = float64(v)
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%v is not a finite number", v)
		}
	case string:
		if a.Type != 's' {
			return fmt.Errorf("the string %q where the method has type %q", v, a.Type)
		}
		if r := a.Range; r != nil && len(r.Values) > 0 && !slices.Contains(r.Values, v) {
			return fmt.Errorf("%q is not one of %v", v, r.Values)
		}
		return nil
	case bool:
		if a.Type != 'T' {
			return fmt.Errorf("a bool where the method has type %q", a.Type)
		}
		return nil
	default:
		return fmt.Errorf("a %T where the method has type %q", v, a.Type)
	}
	r := a.Range
	switch {
	case r == nil:
	case len(r.Values) > 0 && !slices.Contains(r.Values, strconv.FormatFloat(x, 'g', -1, 64)):
		return fmt.Errorf("%v is not one of %v", v, r.Values)
	case r.HasMin && x < r.Min:
		return fmt.Errorf("%v is below its minimum %v", v, r.Min)
	case r.HasMax && x > r.Max:
		return fmt.Errorf("%v is above its maximum %v", v, r.Max)
	}
	return nil
}
