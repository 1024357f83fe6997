package experiments

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/traversal"
)

// ProximityOpts choose the gaps and the spheres of the experiment.
type ProximityOpts struct {
	Level          int     // sphere tessellation: 8·4^Level triangles
	EpsMax, EpsMin float64 // largest and smallest gap
	PerDecade      int     // gaps per decade
	// FitMax and Plateau bound each curve's linear portion (see FitSlope).
	FitMax, Plateau float64
}

// DefaultProximityOpts are the paper's spheres (32,768 triangles) over five
// decades of gaps.
var DefaultProximityOpts = ProximityOpts{Level: 6, EpsMax: 1, EpsMin: 1e-5, PerDecade: 2, FitMax: 0.5, Plateau: 1.0 / 3}

// MaxLevel is the finest tessellation: level 8's spheres (524,288
// triangles each) and their trees stay under about 1 GB; level 9's took
// over 2.8 GB.
const MaxLevel = 8

// The gaps' range: above MaxEps (ten radii) the trees part at the root
// and every count is the same few tests; below MinEps the gap nears the
// rounding of the outer sphere's coordinates (1+eps in float64 holds
// some 16 digits), where the counts stop meaning proximity. MaxPerDecade
// bounds the gaps run, each building two trees of the outer sphere: at
// most 201 over the ten decades from MinEps to MaxEps.
const (
	MinEps       = 1e-9
	MaxEps       = 10
	MaxPerDecade = 20
)

// Check reports the first option out of its range, named as the option
// is (level, eps-max, ...), with the range to give.
func (o ProximityOpts) Check() error {
	if o.Level < 1 || o.Level > MaxLevel {
		return fmt.Errorf("level %d: want 1 to %d", o.Level, MaxLevel)
	}
	for _, c := range []struct {
		name      string
		v, lo, hi float64
	}{{"eps-max", o.EpsMax, MinEps, MaxEps}, {"eps-min", o.EpsMin, MinEps, o.EpsMax}, {"fit-max", o.FitMax, MinEps, MaxEps}} {
		if !(c.v >= c.lo && c.v <= c.hi) {
			return fmt.Errorf("%s %v: want %g to %g", c.name, c.v, c.lo, c.hi)
		}
	}
	if !(o.Plateau > 0 && o.Plateau <= 1) {
		return fmt.Errorf("plateau %v: want a fraction, more than 0 and at most 1", o.Plateau)
	}
	if o.PerDecade < 1 || o.PerDecade > MaxPerDecade {
		return fmt.Errorf("per-decade %d: want 1 to %d", o.PerDecade, MaxPerDecade)
	}
	return nil
}

// ProximityRow is one gap of the experiment.
type ProximityRow struct {
	Eps       float64 `json:"eps"`
	OBBTests  int     `json:"obb_box_tests"`
	AABBTests int     `json:"aabb_box_tests"`
	OBBTri    int     `json:"obb_tri_tests"`
	AABBTri   int     `json:"aabb_tri_tests"`
	OBBMs     float64 `json:"obb_query_ms"`
	AABBMs    float64 `json:"aabb_query_ms"`
}

// ProximityResult is the whole experiment.
type ProximityResult struct {
	Triangles int            `json:"triangles"`
	Rows      []ProximityRow `json:"rows"`
	OBB       SlopeFit       `json:"obb"`
	AABB      SlopeFit       `json:"aabb"`
}

// Proximity runs the experiment, calling onRow (if set) as each gap is
// measured. Concentric spheres never touch: a reported contact is an error.
func Proximity(ctx context.Context, o ProximityOpts, onRow func(ProximityRow)) (*ProximityResult, error) {
	if err := o.Check(); err != nil {
		return nil, fmt.Errorf("experiments: %w", err)
	}
	fits := [2]geom.FitMode{geom.FitHull, geom.FitAxisAligned}
	inner := env.Sphere("inner", geom.Vec3{}, 1, o.Level)
	var trees [2]*env.Tree
	for k, fit := range fits {
		t, err := env.BuildContext(ctx, inner, env.BuildOptions{Fit: fit})
		if err != nil {
			return nil, err
		}
		trees[k] = t
	}
	res := &ProximityResult{Triangles: len(inner.Tris)}
	steps := int(math.Round(math.Log10(o.EpsMax/o.EpsMin)*float64(o.PerDecade))) + 1
	var c traversal.Collider
	for i := range steps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		eps := o.EpsMax * math.Pow(10, -float64(i)/float64(o.PerDecade))
		outer := env.Sphere("outer", geom.Vec3{}, 1+eps, o.Level)
		row := ProximityRow{Eps: eps}
		for k, fit := range fits {
			tb, err := env.BuildContext(ctx, outer, env.BuildOptions{Fit: fit})
			if err != nil {
				return nil, err
			}
			start := time.Now()
			c.Collide(trees[k], tb, geom.Identity())
			ms := float64(time.Since(start).Nanoseconds()) / 1e6
			if len(c.Pairs) != 0 {
				return nil, fmt.Errorf("experiments: eps %g: concentric spheres reported %d contacts", eps, len(c.Pairs))
			}
			if fit == geom.FitHull {
				row.OBBTests, row.OBBTri, row.OBBMs = c.BoxTests, c.TriTests, ms
			} else {
				row.AABBTests, row.AABBTri, row.AABBMs = c.BoxTests, c.TriTests, ms
			}
		}
		res.Rows = append(res.Rows, row)
		if onRow != nil {
			onRow(row)
		}
	}
	res.OBB = FitSlope(res.Rows, func(r ProximityRow) int { return r.OBBTests }, o.FitMax, o.Plateau)
	res.AABB = FitSlope(res.Rows, func(r ProximityRow) int { return r.AABBTests }, o.FitMax, o.Plateau)
	return res, nil
}
