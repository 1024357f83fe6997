package animation

import (
	"math"
	"time"
)

// FallbackStep spaces the last samples of a session whose stamps end on a
// run of equal times when no earlier run gives a spacing: the glove's
// default sample period.
const FallbackStep = 10 * time.Millisecond

// keyTimes returns the animation's key times for frames stamped ts: the
// seconds since the first frame, strictly increasing as glTF requires of
// an animation's input (section 3.11), in the file's single precision.
//
// Stamps that rise are kept as they are. Recordings are not always so: the
// samples parsed from one chunk of raw serial bytes share the chunk's
// stamp, and a damaged or edited recording may step back. Such frames are
// placed deterministically, never dropped:
//
//  1. A stamp earlier than one before it is taken as the latest before it
//     (the running maximum), so a step back reads as a repeat.
//  2. A run of k frames sharing a time u, followed by a later time v, is
//     spread evenly over [u, v): frame i of the run at u + i·(v-u)/k. A run
//     that ends the session is spread at the spacing of the run before it,
//     or FallbackStep if there is none.
//  3. Should two times still round to the same float32 (a session of days,
//     or stamps nanoseconds apart), the later is moved to the next float32
//     above the earlier.
func keyTimes(ts []time.Duration) []float32 {
	out := make([]float32, len(ts))
	if len(ts) == 0 {
		return out
	}
	sec := make([]float64, len(ts))
	for i, t := range ts {
		sec[i] = (t - ts[0]).Seconds()
		if i > 0 {
			sec[i] = max(sec[i], sec[i-1])
		}
	}
	step := FallbackStep.Seconds()
	for a := 0; a < len(sec); {
		b := a + 1
		for b < len(sec) && sec[b] == sec[a] {
			b++
		}
		if b < len(sec) {
			step = (sec[b] - sec[a]) / float64(b-a)
		}
		for i := a + 1; i < b; i++ {
			sec[i] = sec[a] + float64(i-a)*step
		}
		a = b
	}
	for i, s := range sec {
		out[i] = float32(s)
		if i > 0 && out[i] <= out[i-1] {
			out[i] = math.Nextafter32(out[i-1], math.MaxFloat32)
		}
	}
	return out
}
