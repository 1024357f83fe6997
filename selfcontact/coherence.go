package selfcontact

import (
	"math"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/narrow"
)

// coherence is what a frame keeps of the last ones so that links that
// were apart, and have not moved enough since to meet, are passed over
// without a test: each link's motion bounded and summed, the balls
// bounding the hulls, and for each pair of links the chains join a
// certificate of how far apart they were.
type coherence struct {
	// moved[l] sums, frame by frame, a bound on how far any point of link
	// l's hull went; last is where the links were.
	moved   [handmodel.FingerLinks]float64
	last    [handmodel.FingerLinks]geom.Transform
	started bool
	// reach is each hull's furthest point from its link's origin; ball
	// bounds the hull, in the link's frame.
	reach [handmodel.FingerLinks]float64
	ball  [handmodel.FingerLinks]struct {
		c geom.Vec3
		r float64
	}
	centre [handmodel.FingerLinks]geom.Vec3 // ball's centre in the world now
	certs  []cert                           // by Set.LinkPairs
}

// cert says two links were at least gap apart when their motion sums
// were ma and mb.
type cert struct {
	gap, ma, mb float64
	ok          bool
}

// init measures the hulls.
func (c *coherence) init(polys []*narrow.Polytope) {
	for l := range c.reach {
		v := polys[l].Verts
		lo, hi := v[0], v[0]
		for _, p := range v {
			c.reach[l] = max(c.reach[l], p.Len())
			lo = geom.Vec3{X: min(lo.X, p.X), Y: min(lo.Y, p.Y), Z: min(lo.Z, p.Z)}
			hi = geom.Vec3{X: max(hi.X, p.X), Y: max(hi.Y, p.Y), Z: max(hi.Z, p.Z)}
		}
		ctr := lo.Add(hi).Mul(0.5)
		r := 0.0
		for _, p := range v {
			r = max(r, p.Sub(ctr).Len())
		}
		c.ball[l].c, c.ball[l].r = ctr, r
	}
}

// track adds each link's motion since the last frame: a point v of the
// hull at R·v + T moved by at most |ΔT| + ‖ΔR‖·|v|, the Frobenius norm
// bounding ΔR's, with a part in a billion for rounding.
func (c *coherence) track(poses []geom.Transform) {
	for l := range c.centre {
		c.centre[l] = poses[l].Apply(c.ball[l].c)
	}
	if !c.started {
		copy(c.last[:], poses)
		c.started = true
		return
	}
	for l := range c.moved {
		x, y := &poses[l], &c.last[l]
		f := 0.0
		for k := range x.R {
			d := x.R[k] - y.R[k]
			f += d * d
		}
		dt := x.T.Sub(y.T).Len()
		c.moved[l] += dt + math.Sqrt(f)*c.reach[l] + 1e-9*(c.reach[l]+dt)
		c.last[l] = *x
	}
}

// apart reports whether group g's links a and b are surely apart: by a
// certificate from an earlier frame that still holds, or else by the
// balls bounding their hulls, which then give a new one.
func (c *coherence) apart(g int, a, b handmodel.Link) bool {
	ct := &c.certs[g]
	if ct.ok && ct.gap-(c.moved[a]-ct.ma)-(c.moved[b]-ct.mb) > 0 {
		return true
	}
	r := c.ball[a].r + c.ball[b].r
	if gap := c.centre[a].Sub(c.centre[b]).Len() - r - 1e-9*r; gap > 0 {
		c.certify(g, a, b, gap)
		return true
	}
	ct.ok = false
	return false
}

// certify records that group g's links a and b are at least gap apart
// now.
func (c *coherence) certify(g int, a, b handmodel.Link, gap float64) {
	c.certs[g] = cert{gap: gap, ma: c.moved[a], mb: c.moved[b], ok: gap > 0}
}
