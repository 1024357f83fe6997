package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/session"
	"github.com/gloved/gloved/traversal"
)

// defaultMaxPairs bounds the pairs collide holds: two meshes overlapping
// everywhere meet in pairs that grow with the product of their sizes (two
// fans of 10,000 triangles, 1e8 pairs, ran out of memory); a million
// pairs are 8 MB. maxPairs, 800 MB of them, is the most --max-pairs takes.
const defaultMaxPairs, maxPairs = 1_000_000, 100_000_000

type collideFlags struct {
	pose  *poseFlag
	first bool
	max   int
	json  bool
	fit   string
}

func runCollide(ctx context.Context, args []string, out io.Writer) error {
	var f collideFlags
	fs := newFlagSet("collide", commands()["collide"].usage, out)
	f.pose = addPoseFlag(fs, "place-b", "pose-b", "B's pose in A's frame (default: the identity)")
	fs.BoolVar(&f.first, "first", false, "stop at the first intersecting pair")
	fs.IntVar(&f.max, "max-pairs", defaultMaxPairs, "stop after this many intersecting pairs (each is held in memory until printed)")
	fs.BoolVar(&f.json, "json", false, "print one JSON object")
	fs.StringVar(&f.fit, "fit", "hull", "box orientation: hull (the paper's), surface, or aabb")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return fmt.Errorf("%w: collide takes two mesh files, got %d (`gloved collide -h` lists the flags)", errUsage, len(pos))
	}
	if err := between("max-pairs", f.max, 1, maxPairs); err != nil {
		return err
	}
	pose := geom.Identity()
	v, err := f.pose.pose()
	if err != nil {
		return err
	}
	if v != nil {
		pose, _ = session.PoseFrom(v) // pose() checked it
	}
	fit, err := parseFit(f.fit)
	if err != nil {
		return fmt.Errorf("%w: --fit: %v", errUsage, err)
	}
	var trees [2]*env.Tree
	var buildS [2]float64
	for i, path := range pos {
		m, err := env.Load(path, env.LoadOptions{})
		if err != nil {
			return err
		}
		warnScene(m)
		start := time.Now()
		if trees[i], err = env.BuildContext(ctx, m, env.BuildOptions{Fit: fit}); err != nil {
			if ctx.Err() != nil {
				return collideInterrupted(ctx)
			}
			return err
		}
		buildS[i] = time.Since(start).Seconds()
	}
	c := traversal.Collider{FirstContact: f.first, MaxPairs: f.max, Stop: func() bool { return ctx.Err() != nil }}
	start := time.Now()
	c.Collide(trees[0], trees[1], pose)
	query := time.Since(start)
	if c.Stopped {
		return collideInterrupted(ctx)
	}
	if f.json {
		return writeCollideJSON(out, &c, buildS)
	}
	for i, t := range trees {
		m := t.Mesh
		fmt.Fprintf(out, "%c: %s: %d triangles (%d degenerate) in %d objects %v; tree of %d nodes, depth %d, built in %.1f ms\n",
			'A'+i, pos[i], len(m.Tris), m.Degenerate, len(m.Objects), m.Objects, len(t.Nodes), t.Depth, buildS[i]*1e3)
	}
	fmt.Fprintf(out, "box tests: %d, triangle tests: %d, query %.3f ms\n", c.BoxTests, c.TriTests, float64(query.Nanoseconds())/1e6)
	fmt.Fprintf(out, "intersecting pairs: %d\n", len(c.Pairs))
	if c.AtMaxPairs {
		fmt.Fprintf(out, "stopped at --max-pairs %d: there are more; raise it to list them\n", f.max)
	}
	for _, p := range c.Pairs {
		fmt.Fprintf(out, "  A#%d (%s)  B#%d (%s)\n", p[0], trees[0].Mesh.ObjectName(int(p[0])), p[1], trees[1].Mesh.ObjectName(int(p[1])))
	}
	return nil
}

func writeCollideJSON(out io.Writer, c *traversal.Collider, buildS [2]float64) error {
	pairs := c.Pairs
	if pairs == nil {
		pairs = [][2]int32{}
	}
	return json.NewEncoder(out).Encode(struct {
		Pairs      [][2]int32 `json:"pairs"`
		AtMaxPairs bool       `json:"at_max_pairs"`
		BoxTests   int        `json:"box_tests"`
		TriTests   int        `json:"tri_tests"`
		BuildS     [2]float64 `json:"build_s"`
	}{pairs, c.AtMaxPairs, c.BoxTests, c.TriTests, buildS})
}

func parseFit(s string) (geom.FitMode, error) {
	switch s {
	case "hull":
		return geom.FitHull, nil
	case "surface":
		return geom.FitSurface, nil
	case "aabb":
		return geom.FitAxisAligned, nil
	}
	return 0, fmt.Errorf("%q: want hull, surface or aabb", s)
}

// collideInterrupted is collide stopped by a signal before it answered.
func collideInterrupted(ctx context.Context) error {
	return fmt.Errorf("collide interrupted (%v) before it answered: nothing listed; run it again and let it finish, or give --first or a smaller --max-pairs", context.Cause(ctx))
}
