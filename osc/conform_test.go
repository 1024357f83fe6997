package osc

import (
	"math"
	"strings"
	"testing"
)

// TestCheckArgsHoldsValuesToTheirRanges: arguments of the method's types
// inside its ranges pass; one missing, of another type, NaN, outside a
// bound or not among the values is named.
func TestCheckArgsHoldsValuesToTheirRanges(t *testing.T) {
	m := Method{Path: "/m", Access: Sent, Args: []Arg{
		{Type: 'i', Name: "flag", Range: Between(0, 1)},
		{Type: 'f', Name: "depth", Range: AtLeast(0)},
		{Type: 's', Name: "state", Range: OneOf("on", "off")},
		{Type: 'T', Name: "held"},
		{Type: 'f', Name: "free"},
	}}
	nan := float32(math.NaN())
	tests := []struct {
		args []any
		says string // "" for none
	}{
		{[]any{int32(1), float32(0), "off", false, float32(-3)}, ""},
		{[]any{int32(0), float32(2.5), "on", true, float32(1e30)}, ""},
		{[]any{int32(1), float32(0), "off", false}, "4 arguments"},
		{[]any{int32(2), float32(0), "off", false, float32(0)}, "flag): 2 is above its maximum 1"},
		{[]any{int32(1), float32(-0.001), "off", false, float32(0)}, "depth): -0.001 is below its minimum 0"},
		{[]any{int32(1), float32(0), "maybe", false, float32(0)}, `state): "maybe" is not one of`},
		{[]any{int32(1), float32(0), "on", int32(1), float32(0)}, "held): the int32 1"},
		{[]any{float32(1), float32(0), "on", true, float32(0)}, "flag): the float32 1"},
		{[]any{int32(1), float32(0), "on", true, nan}, "free): NaN is not a finite number"},
		{[]any{int32(1), float32(0), "on", true, 1.5}, "free): a float64"},
	}
	for _, tc := range tests {
		err := m.CheckArgs(tc.args, Shape{})
		if tc.says == "" && err != nil || tc.says != "" && (err == nil || !strings.Contains(err.Error(), tc.says)) {
			t.Errorf("%v: got %v, want %q", tc.args, err, tc.says)
		}
	}
	opt := Method{Path: "/o", Access: Accepted, Args: []Arg{{Type: 'i', Name: "port"}, {Type: 's', Name: "token", Optional: true}}}
	for _, tc := range []struct {
		args []any
		says string
	}{
		{[]any{int32(1)}, ""},
		{[]any{int32(1), "t"}, ""},
		{[]any{}, "0 arguments, the method has 1 to 2"},
		{[]any{int32(1), "t", "u"}, "3 arguments, the method has 1 to 2"},
		{[]any{int32(1), int32(2)}, "token): the int32 2"},
	} {
		err := opt.CheckArgs(tc.args, Shape{})
		if tc.says == "" && err != nil || tc.says != "" && (err == nil || !strings.Contains(err.Error(), tc.says)) {
			t.Errorf("optional token, %v: got %v, want %q", tc.args, err, tc.says)
		}
	}
	each := Method{Path: "/e", Access: Sent, Each: []Arg{{Type: 'f', Name: "angle", Range: Between(-1, 1)}}, Per: PerJoint}
	if err := each.CheckArgs([]any{float32(0.5), float32(-1.5)}, Shape{Joints: 2}); err == nil || !strings.Contains(err.Error(), "argument 1") {
		t.Errorf("a repeated group's second value out of range: got %v", err)
	}
}
