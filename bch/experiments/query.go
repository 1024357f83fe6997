package experiments

import (
	"context"
	"time"

	"github.com/gloved/gloved/bch"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/traversal"
)

// Query is the paper's second experiment (section 4.1, figure 3 right):
// the time of a binary collision query on colliding test cases, every
// case run in sequence, the whole sequence Iterations times (so that no
// case finds its trees in the cache from its last run).
type Query struct {
	Cases      int `json:"cases"`
	Iterations int `json:"iterations"`
	Draws      int `json:"draws"` // random placements drawn to find the colliding cases
	// Mean time per query (µs): the BCH contour with the paper's
	// infinitely tall cylinders and with cylinders of finite extent as
	// package bch builds them, all projected triangles and single
	// cylinder at full depth (B's trees placed beforehand), and the OBB
	// tree of every triangle to the first meeting triangle pair (placing
	// B's boxes as it descends).
	TallUS      float64 `json:"contour_tall_us"`
	ContourUS   float64 `json:"contour_us"`
	TrianglesUS float64 `json:"triangles_us"`
	SingleUS    float64 `json:"single_us"`
	OBBUS       float64 `json:"obb_us"`
	// Cases each reports as colliding: all of them for the triangles
	// tree, the single cylinder and the OBB tree; the contour tree
	// misses a case whose outlines do not meet, and with cylinders of
	// finite extent one whose outlines meet only at different heights.
	TallHits      int `json:"contour_tall_hits"`
	ContourHits   int `json:"contour_hits"`
	TrianglesHits int `json:"triangles_hits"`
	SingleHits    int `json:"single_hits"`
	OBBHits       int `json:"obb_hits"`
	// Cylinder pairs tested per query, mean.
	TallTests      float64 `json:"contour_tall_tests"`
	ContourTests   float64 `json:"contour_tests"`
	TrianglesTests float64 `json:"triangles_tests"`
}

// QueryTimes times the queries of cases on tr, iters times over.
func QueryTimes(ctx context.Context, tr *Trees, cases []Case, iters int) (Query, error) {
	res := Query{Cases: len(cases), Iterations: iters}
	var stack [][2]int32
	for _, v := range []struct {
		trees     []*bch.Tree
		us, tests *float64
		hits      *int
	}{
		{tr.Tall, &res.TallUS, &res.TallTests, &res.TallHits},
		{tr.Contour, &res.ContourUS, &res.ContourTests, &res.ContourHits},
		{tr.Triangles, &res.TrianglesUS, &res.TrianglesTests, &res.TrianglesHits},
		{tr.Single, &res.SingleUS, nil, &res.SingleHits},
	} {
		placed := make([]bch.Tree, len(cases))
		tests := 0
		for i, c := range cases {
			Place(&placed[i], v.trees[c.B], c.P)
			q := bch.Query(v.trees[c.A], &placed[i], -1, &stack)
			if q.Hit {
				*v.hits++
			}
			tests += q.Tests
		}
		if v.tests != nil {
			*v.tests = float64(tests) / float64(max(len(cases), 1))
		}
		d, err := timeLoop(ctx, iters, func() { bchPass(v.trees, placed, cases, &stack) })
		if err != nil {
			return res, err
		}
		*v.us = us(d) / float64(max(iters*len(cases), 1))
	}
	col := traversal.Collider{FirstContact: true}
	poses := make([]geom.Transform, len(cases))
	for i, c := range cases {
		poses[i] = tr.Frame.Transform(c.P)
		if col.Collide(tr.OBB[c.A], tr.OBB[c.B], poses[i]) > 0 {
			res.OBBHits++
		}
	}
	d, err := timeLoop(ctx, iters, func() { obbPass(&col, tr, cases, poses) })
	res.OBBUS = us(d) / float64(max(iters*len(cases), 1))
	return res, err
}

// bchPass queries every case in turn: trees[c.A] against placed[i],
// case i's B placed.
func bchPass(trees []*bch.Tree, placed []bch.Tree, cases []Case, stack *[][2]int32) {
	for i, c := range cases {
		bch.Query(trees[c.A], &placed[i], -1, stack)
	}
}

// obbPass runs the OBB trees' query of every case in turn, case i's B
// placed by poses[i].
func obbPass(col *traversal.Collider, tr *Trees, cases []Case, poses []geom.Transform) {
	for i, c := range cases {
		col.Collide(tr.OBB[c.A], tr.OBB[c.B], poses[i])
	}
}

// timeLoop runs pass iters times and returns the time taken, checking
// ctx between passes.
func timeLoop(ctx context.Context, iters int, pass func()) (time.Duration, error) {
	var total time.Duration
	for range iters {
		if err := ctx.Err(); err != nil {
			return total, err
		}
		t0 := time.Now()
		pass()
		total += time.Since(t0)
	}
	return total, nil
}
