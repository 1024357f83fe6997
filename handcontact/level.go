package handcontact

import (
	"time"

	"github.com/gloved/gloved/geom"
)

// The level of detail under a frame budget. The detector knows what each
// level costs: Measure times every level on the hands superimposed (their
// worst meeting: every link near many), and every Frame moves its level's
// cost toward what it took. Choose then picks the deepest level whose
// cost fits what is left of a frame.

// costWeight is how much one frame moves its level's cost.
const costWeight = 0.125

// staleWeight is how much a frame the limit stopped at a level lowers
// the cost of each deeper level, toward the level's own: a deeper level's
// cost, raised at once by one slow frame (the machine busy for a moment),
// is never measured again while the limit holds and the hands keep
// meeting, and kept the hands at the limit for good. It now sinks until
// Choose tries the level again, which measures it: a level that truly
// costs more than the budget is tried again after a few seconds (twice
// the budget: about every 2 s at 100 frames a second; eight times: 6 s),
// one frame over its budget each time.
const staleWeight = 1.0 / 256

// slot returns the costs index of a depth limit.
func (d *Detector) slot(maxDepth int) int {
	if maxDepth < 0 || maxDepth >= d.Levels() {
		return d.Levels()
	}
	return maxDepth
}

// observe moves the level's cost toward a frame's time: up to it at
// once, down by a moving average; and full depth's too when the limit did
// not stop the query, which then did all a full one would have (so a
// pessimistic measurement does not keep the hands at a limit while they
// are apart). When the limit stopped it, the deeper levels' costs, which
// it did not measure, sink slowly toward its own (staleWeight).
func (d *Detector) observe(maxDepth int, took time.Duration) {
	ns := float64(took.Nanoseconds())
	move := func(k int) {
		if ns > d.costs[k] { // up at once: the next frame must not overrun on an old estimate
			d.costs[k] = ns
			return
		}
		d.costs[k] += costWeight * (ns - d.costs[k])
	}
	k := d.slot(maxDepth)
	move(k)
	full := d.Levels()
	if !d.Limited && k != full {
		move(full)
		return
	}
	if d.Limited {
		for j := k + 1; j <= full; j++ {
			if d.costs[j] > d.costs[k] {
				d.costs[j] -= staleWeight * (d.costs[j] - d.costs[k])
			}
		}
	}
}

// Cost returns what a query limited at maxDepth (below 0: full depth) has
// cost: 0 until it has been measured or run.
func (d *Detector) Cost(maxDepth int) time.Duration {
	return time.Duration(d.costs[d.slot(maxDepth)])
}

// Choose returns the depth limit for a frame with remaining time left:
// -1 (no limit) when the full query's cost fits, else the deepest level
// whose cost fits, else 0, the hands' root boxes, which cost one box
// test.
func (d *Detector) Choose(remaining time.Duration) int {
	if d.Cost(-1) <= remaining {
		return -1
	}
	for l := d.Levels() - 1; l > 0; l-- {
		if d.Cost(l) <= remaining {
			return l
		}
	}
	return 0
}

// Measure sets every level's cost by timing it reps times on poses a and
// b with b moved so that the hands' root boxes share their centre: the
// hands wholly superimposed, a worst case. The last frame's answer is
// then that of the superimposed hands.
func (d *Detector) Measure(a, b *Pose, reps int) error {
	reps = max(reps, 1)
	d.measure.CopyFrom(b)
	if !a.fits(&d.this) || !d.measure.fits(&d.other) {
		return d.run(a, b, -1) // says why
	}
	ca, cb := rootBox(a, d.this.Hier.Root).Center, rootBox(&d.measure, d.other.Hier.Root).Center
	d.measure.Translate(ca.Sub(cb))
	for k := range d.costs {
		limit := k
		if k == d.Levels() {
			limit = -1
		}
		t0 := time.Now()
		for range reps {
			if err := d.run(a, &d.measure, limit); err != nil {
				return err
			}
		}
		d.costs[k] = float64(time.Since(t0).Nanoseconds()) / float64(reps)
	}
	return nil
}

// Translate moves a pose by t.
func (p *Pose) Translate(t geom.Vec3) {
	for i := range p.Links {
		p.Links[i].T = p.Links[i].T.Add(t)
	}
	for i := range p.Boxes {
		p.Boxes[i].Center = p.Boxes[i].Center.Add(t)
	}
	for i := range p.Leaves {
		p.Leaves[i].Center = p.Leaves[i].Center.Add(t)
	}
}
