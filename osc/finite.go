package osc

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// finite32 reports whether v survives the trip to a float32 as a finite
// number: not NaN, not an infinity, not beyond float32's range.
func finite32(v float64) bool {
	f := float64(float32(v))
	return !math.IsNaN(f) && !math.IsInf(f, 0)
}

func finiteVec(v mgl64.Vec3) bool {
	return finite32(v[0]) && finite32(v[1]) && finite32(v[2])
}

// Finite reports whether the frame's timing, joints and link poses can
// be sent (AppendFrame sends nothing of a frame that is not; output
// profiles do likewise).
func (f *Frame) Finite() bool { return f.finite() }

// finite reports whether the frame's timing, joints and link poses can be
// sent.
func (f *Frame) finite() bool {
	if !finite32(f.PipelineMS) {
		return false
	}
	for _, j := range f.Joints {
		if !finite32(j) {
			return false
		}
	}
	for i := range f.Links {
		p := &f.Links[i]
		if !finiteVec(p.P) || !finiteVec(p.Q.V) || !finite32(p.Q.W) {
			return false
		}
	}
	return true
}

// finite reports whether the contact can be sent.
func (c *Contact) finite() bool {
	return finite32(c.Depth) && finiteVec(c.Point) && finiteVec(c.Normal)
}
