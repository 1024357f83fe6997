package experiments

import (
	"context"
	"fmt"
	"time"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/traversal"
)

// chainLinks is the number of links of each chain (16 in all, as in the
// paper's tables 1-4).
const chainLinks = 8

// ChainExperiment runs two chains of 8 links (16 in all) through a motion
// for the given frames (t advances 10 ms a frame). Per frame the pairs
// tested are the 64 chain-to-chain pairs and the non-adjacent pairs within
// each chain (2 × 21): 106 for brute force; the hierarchies' candidates
// for the strategies.
func ChainExperiment(ctx context.Context, name string, m Motion, s LinkShape, frames int) (*Table, error) {
	r, err := newChainRig(m, s)
	if err != nil {
		return nil, err
	}
	brute := func() (Row, error) { return r.bruteRow(ctx, frames) }
	strategy := func(st cab.Strategy) (Row, error) { return r.strategyRow(ctx, st, frames) }
	return runTable(name, frames, brute, strategy)
}

// chainRig is a chain experiment's two chains (their hierarchies and exact
// queries), its motion, and the poses of the current frame.
type chainRig struct {
	m            Motion
	s            LinkShape
	ha, hb       *cab.Hierarchy
	ea, eb       *Exact
	pa, pb       []geom.Transform
	bendA, bendB [][2]float64
}

func newChainRig(m Motion, s LinkShape) (*chainRig, error) {
	r := &chainRig{m: m, s: s,
		pa: make([]geom.Transform, chainLinks), pb: make([]geom.Transform, chainLinks),
		bendA: make([][2]float64, chainLinks), bendB: make([][2]float64, chainLinks),
	}
	var err error
	if r.ha, r.ea, err = newChain("a", s); err != nil {
		return nil, err
	}
	if r.hb, r.eb, err = newChain("b", s); err != nil {
		return nil, err
	}
	return r, nil
}

// newChain builds one chain's hierarchy and exact queries.
func newChain(name string, s LinkShape) (*cab.Hierarchy, *Exact, error) {
	b, err := ChainBody(name, chainLinks, s)
	if err != nil {
		return nil, nil, err
	}
	h, err := cab.Build(b)
	if err != nil {
		return nil, nil, fmt.Errorf("experiments: chain %s: %w", name, err)
	}
	e, err := NewExact(b)
	if err != nil {
		return nil, nil, fmt.Errorf("experiments: chain %s: %w", name, err)
	}
	return h, e, nil
}

// pose places both chains at frame f.
func (r *chainRig) pose(f int) {
	TwoChainPoses(r.m, r.s, chainLinks, float64(f)*0.01, r.bendA, r.bendB, r.pa, r.pb)
}

// bruteRow runs the exact query for every pair of every frame, until ctx
// ends.
func (r *chainRig) bruteRow(ctx context.Context, frames int) (Row, error) {
	row := Row{Method: "brute"}
	for f := range frames {
		if err := ctx.Err(); err != nil {
			return Row{}, err
		}
		r.pose(f)
		t0 := time.Now()
		for i := range chainLinks {
			for j := range chainLinks {
				row.count(r.ea.LinkLink(i, r.pa[i], r.eb, j, r.pb[j]))
			}
			for j := i + 2; j < chainLinks; j++ {
				row.count(r.ea.LinkLink(i, r.pa[i], r.ea, j, r.pa[j]))
				row.count(r.eb.LinkLink(i, r.pb[i], r.eb, j, r.pb[j]))
			}
		}
		row.Query += time.Since(t0)
	}
	return row, nil
}

// strategyRow refits both chains with the strategy every frame, collects
// the candidate pairs and runs the exact query on them, until ctx ends.
func (r *chainRig) strategyRow(ctx context.Context, strat cab.Strategy, frames int) (Row, error) {
	ra, err := cab.NewRefitter(strat, r.ha)
	if err != nil {
		return Row{}, err
	}
	rb, err := cab.NewRefitter(strat, r.hb)
	if err != nil {
		return Row{}, err
	}
	row := Row{Method: string(strat)}
	q := traversal.BodyQuery{SkipAdjacent: true}
	var c chainCandidates
	for f := range frames {
		if err := ctx.Err(); err != nil {
			return Row{}, err
		}
		r.pose(f)
		t0 := time.Now()
		ra.Refit(r.pa)
		rb.Refit(r.pb)
		t1 := time.Now()
		r.candidates(&q, &c)
		t2 := time.Now()
		r.query(&row, &c)
		t3 := time.Now()
		row.Update += t1.Sub(t0)
		row.Test += t2.Sub(t1)
		row.Query += t3.Sub(t2)
		row.BoxTest += c.boxTests
		row.Volume += internalVolume(r.ha) + internalVolume(r.hb)
	}
	row.Volume /= float64(frames)
	return row, nil
}

// chainCandidates are one frame's candidate pairs: pairs[:cross] of chain
// A with chain B, then selfA pairs within A, then the pairs within B.
type chainCandidates struct {
	pairs        []traversal.LinkPair
	cross, selfA int
	boxTests     int
}

// candidates descends the refitted hierarchies for the frame's candidates.
func (r *chainRig) candidates(q *traversal.BodyQuery, c *chainCandidates) {
	q.Run(r.ha, r.hb)
	c.cross = len(q.Pairs)
	c.pairs = append(c.pairs[:0], q.Pairs...)
	c.boxTests = q.BoxTests
	q.Self(r.ha)
	c.selfA = len(q.Pairs)
	c.pairs = append(c.pairs, q.Pairs...)
	c.boxTests += q.BoxTests
	q.Self(r.hb)
	c.pairs = append(c.pairs, q.Pairs...)
	c.boxTests += q.BoxTests
}

// query runs the exact query on every candidate pair.
func (r *chainRig) query(row *Row, c *chainCandidates) {
	for k, p := range c.pairs {
		switch {
		case k < c.cross:
			row.count(r.ea.LinkLink(int(p.A), r.pa[p.A], r.eb, int(p.B), r.pb[p.B]))
		case k < c.cross+c.selfA:
			row.count(r.ea.LinkLink(int(p.A), r.pa[p.A], r.ea, int(p.B), r.pa[p.B]))
		default:
			row.count(r.eb.LinkLink(int(p.A), r.pb[p.A], r.eb, int(p.B), r.pb[p.B]))
		}
	}
}
