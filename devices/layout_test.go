package devices

import (
	"math"
	"strings"
	"testing"
)

func TestLayoutCheckNamesWhatIsWrong(t *testing.T) {
	ok := Layout{Name: "five", Bits: 10, Sensors: []Channel{{Name: "a", Joints: Moves("index_mcp")}}, Angles: []Channel{{Name: "b"}}}
	if err := ok.Check(); err != nil {
		t.Fatalf("a good layout: %v", err)
	}
	for _, tc := range []struct {
		edit func(*Layout)
		says string
	}{
		{func(l *Layout) { l.Name = "" }, "needs a name"},
		{func(l *Layout) { l.Sensors, l.Angles = nil, nil }, "at least one channel"},
		{func(l *Layout) { l.Sensors = make([]Channel, MaxReadings+1) }, "49 sensors"},
		{func(l *Layout) { l.Bits = 0 }, "0 bits"},
		{func(l *Layout) { l.Bits = 17 }, "17 bits"},
		{func(l *Layout) { l.Angles = []Channel{{Name: "a"}} }, `channel "a"`},
		{func(l *Layout) { l.Sensors = []Channel{{Name: ""}} }, `channel ""`},
		{func(l *Layout) { l.Sensors = []Channel{{Name: "a", Joints: []Share{{Joint: "x", Gain: math.NaN()}}}} }, "joint x's gain is NaN"},
		{func(l *Layout) { l.Angles = []Channel{{Name: "b", Control: Trigger}} }, "channel b: a control is a sensor reading"},
		{func(l *Layout) { l.Sensors = []Channel{{Name: "a", Joints: Moves("index_mcp"), Control: AButton}} }, "channel a: control 6"},
		{func(l *Layout) { l.Sensors = []Channel{{Name: "a", Control: Menu}, {Name: "c", Control: Menu}} }, "channel c: control 10"},
		{func(l *Layout) { l.Sensors = []Channel{{Name: "a", Control: numControls}} }, "channel a: control 12"},
	} {
		l := ok
		tc.edit(&l)
		if err := l.Check(); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("got %v, want an error saying %q", err, tc.says)
		}
	}
}
