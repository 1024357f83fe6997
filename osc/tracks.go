package osc

import (
	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// Tracks keeps an output profile's rotations (its joints', its bones')
// continuous over a hand's frames, as FillFrame keeps the links': each
// quaternion in the hemisphere of the same rotation's previous one
// (geom.QuatTrack), the stream starting again with W >= 0 whenever a
// frame's sample number does not go forward (a looping replay's next
// pass, a reload). The zero value tracks nothing; Reset sizes it.
type Tracks struct {
	q       []geom.QuatTrack
	sample  uint64
	started bool
}

// Reset sizes the tracks for n rotations, at the start of a stream.
func (t *Tracks) Reset(n int) { *t = Tracks{q: make([]geom.QuatTrack, n)} }

// Begin starts frame f: a new stream if its sample does not follow the
// last frame's.
func (t *Tracks) Begin(f *Frame) {
	if t.started && f.Sample <= t.sample {
		for i := range t.q {
			t.q[i].Reset()
		}
	}
	t.sample, t.started = f.Sample, true
}

// Next returns rotation i's quaternion q or -q, whichever continues its
// track.
func (t *Tracks) Next(i int, q mgl64.Quat) mgl64.Quat { return t.q[i].Next(q) }
