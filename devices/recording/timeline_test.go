package recording

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestTimelineTakesOutEveryJump: records in order, at most MaxGap apart,
// play at their own times; a record more than MaxGap after the one before
// it, before it, or stamped at the ends of the clock plays at the time of
// the one before it, the records after it keep their distances from it,
// and the jump is an ErrJump naming the record's byte offset.
func TestTimelineTakesOutEveryJump(t *testing.T) {
	const s, maxT, minT = time.Second, time.Duration(1<<63 - 1), time.Duration(-1 << 63)
	for _, tc := range []struct {
		name   string
		stamps []time.Duration
		played []time.Duration
		jumps  []int // the records that jump
	}{
		{"in order", []time.Duration{0, s, 3 * s}, []time.Duration{0, s, 3 * s}, nil},
		{"MaxGap apart", []time.Duration{MaxGap, 2 * MaxGap}, []time.Duration{MaxGap, 2 * MaxGap}, nil},
		{"repeated", []time.Duration{s, s}, []time.Duration{s, s}, nil},
		{"a 120 s gap", []time.Duration{s, 121 * s, 122 * s}, []time.Duration{s, s, 2 * s}, []int{1}},
		{"just over MaxGap", []time.Duration{0, MaxGap + 1}, []time.Duration{0, 0}, []int{1}},
		{"first after MaxGap", []time.Duration{MaxGap + s, MaxGap + 2*s}, []time.Duration{0, s}, []int{0}},
		{"backwards", []time.Duration{5 * s, 3 * s, 4 * s}, []time.Duration{5 * s, 5 * s, 6 * s}, []int{1}},
		{"2^63-1 ns", []time.Duration{s, maxT, 2 * s}, []time.Duration{s, s, s}, []int{1, 2}},
		{"from one end to the other", []time.Duration{minT, maxT, maxT}, []time.Duration{0, 0, 0}, []int{0, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tl Timeline
			var jumps []int
			for i, stamp := range tc.stamps {
				offset := int64(100 + 17*i)
				got, err := tl.Next(Record{Kind: KindSample, Time: stamp, Offset: offset})
				if got != tc.played[i] {
					t.Errorf("record %d stamped %v plays at %v, want %v", i, stamp, got, tc.played[i])
				}
				if err == nil {
					continue
				}
				jumps = append(jumps, i)
				if !errors.Is(err, ErrJump) || !strings.Contains(err.Error(), fmt.Sprintf("at byte %d ", offset)) {
					t.Errorf("record %d: %v, want an ErrJump naming byte %d", i, err, offset)
				}
			}
			if fmt.Sprint(jumps) != fmt.Sprint(tc.jumps) {
				t.Errorf("jumps at records %v, want %v", jumps, tc.jumps)
			}
		})
	}
}
