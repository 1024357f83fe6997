package experiments

import (
	"context"
	"fmt"
	"time"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/traversal"
)

// The simulated glove of the hand experiment: 22 sensors, a sample every
// 10 ms.
const (
	gloveSensors = 22
	gloveStep    = 10 * time.Millisecond
)

// HandExperiment drives the hand with the simulated glove grasping a ball
// on a table (the paper's table 5). A query is one (link, object) pair:
// brute force runs the exact test for every link against every object;
// the strategies run it for the (link, object) pairs their candidate
// (link, triangle) pairs name, over those triangles.
func HandExperiment(ctx context.Context, frames, ballLevel int) (*Table, error) {
	r, err := newHandRig(ballLevel)
	if err != nil {
		return nil, err
	}
	brute := func() (Row, error) { return r.bruteRow(ctx, frames) }
	strategy := func(s cab.Strategy) (Row, error) { return r.strategyRow(ctx, s, frames) }
	return runTable("hand grasping a ball on a table", frames, brute, strategy)
}

// handRig is the hand experiment's hand (its hierarchy and exact queries,
// posed from glove samples through the default calibration), its scene
// (one tree over all of it, and one per object for brute force), and the
// link poses of the current frame.
type handRig struct {
	hand    *handmodel.Hand
	cal     *handmodel.Calibration
	h       *cab.Hierarchy
	exact   *Exact
	scene   *env.Mesh
	tree    *env.Tree
	objects []*env.Tree
	poses   []geom.Transform
}

func newHandRig(ballLevel int) (*handRig, error) {
	hand, err := handmodel.New(handmodel.DefaultParams)
	if err != nil {
		return nil, err
	}
	body, err := cab.HandBody(hand)
	if err != nil {
		return nil, err
	}
	r := &handRig{hand: hand, scene: env.GraspScene(ballLevel), poses: make([]geom.Transform, len(body.Links))}
	if r.cal, err = handmodel.DefaultCalibration(gloveSensors); err != nil {
		return nil, err
	}
	if r.h, err = cab.Build(body); err != nil {
		return nil, fmt.Errorf("experiments: hand: %w", err)
	}
	if r.exact, err = NewExact(body); err != nil {
		return nil, fmt.Errorf("experiments: hand: %w", err)
	}
	if r.tree, err = env.Build(r.scene, env.BuildOptions{}); err != nil {
		return nil, fmt.Errorf("experiments: grasp scene: %w", err)
	}
	if r.objects, err = objectTrees(r.scene); err != nil {
		return nil, err
	}
	return r, nil
}

// objectTrees builds one tree per object of the scene.
func objectTrees(scene *env.Mesh) ([]*env.Tree, error) {
	trees := make([]*env.Tree, len(scene.Objects))
	for o, name := range scene.Objects {
		m, _ := scene.ObjectMesh(o)
		t, err := env.Build(m, env.BuildOptions{})
		if err != nil {
			return nil, fmt.Errorf("experiments: grasp scene object %s: %w", name, err)
		}
		trees[o] = t
	}
	return trees, nil
}

// newGlove starts the simulated grasp from its beginning, so that every row
// of the table sees the same frames.
func newGlove() (*sim.Glove, error) {
	g, err := sim.New(sim.Grasp, gloveSensors, gloveStep, true)
	if err != nil {
		return nil, fmt.Errorf("experiments: simulated glove: %w", err)
	}
	return g, nil
}

// pose reads the glove's next sample and poses the hand over the ball.
func (r *handRig) pose(glove *sim.Glove) error {
	var s devices.Sample
	var q handmodel.Angles
	if err := glove.Read(&s); err != nil {
		return fmt.Errorf("experiments: simulated glove: %w", err)
	}
	if err := r.cal.Angles(&s, &r.hand.Limits, &q); err != nil {
		return fmt.Errorf("experiments: %w", err)
	}
	r.hand.Pose(&q, env.GraspWrist(), r.poses)
	return nil
}

// bruteRow runs the exact query for every link and object of every
// frame, until ctx ends.
func (r *handRig) bruteRow(ctx context.Context, frames int) (Row, error) {
	glove, err := newGlove()
	if err != nil {
		return Row{}, err
	}
	row := Row{Method: "brute"}
	col := traversal.Collider{FirstContact: true}
	for range frames {
		if err := ctx.Err(); err != nil {
			return Row{}, err
		}
		if err := r.pose(glove); err != nil {
			return Row{}, err
		}
		t0 := time.Now()
		for l := range r.poses {
			for _, obj := range r.objects {
				row.count(r.exact.LinkSurface(l, r.poses[l], obj, &col))
			}
		}
		row.Query += time.Since(t0)
	}
	return row, nil
}

// strategyRow refits the hand with the strategy every frame, descends it
// with the scene's tree and runs the exact queries the candidates name,
// until ctx ends.
func (r *handRig) strategyRow(ctx context.Context, strat cab.Strategy, frames int) (Row, error) {
	ref, err := cab.NewRefitter(strat, r.h)
	if err != nil {
		return Row{}, err
	}
	glove, err := newGlove()
	if err != nil {
		return Row{}, err
	}
	row := Row{Method: string(strat)}
	var sq traversal.SceneQuery
	hits := make([]int8, len(r.poses)*len(r.scene.Objects))
	for range frames {
		if err := ctx.Err(); err != nil {
			return Row{}, err
		}
		if err := r.pose(glove); err != nil {
			return Row{}, err
		}
		t0 := time.Now()
		ref.Refit(r.poses)
		t1 := time.Now()
		sq.Run(r.h, r.tree)
		t2 := time.Now()
		r.query(&row, sq.Pairs, hits)
		t3 := time.Now()
		row.Update += t1.Sub(t0)
		row.Test += t2.Sub(t1)
		row.Query += t3.Sub(t2)
		row.BoxTest += sq.BoxTests
		row.Volume += internalVolume(r.h)
	}
	row.Volume /= float64(frames)
	return row, nil
}

// query runs the exact query of each (link, object) pair that candidate
// (link, triangle) pairs name, over those triangles until one meets the
// link. hits is per (link, object): 0 untested, 1 miss, 2 hit.
func (r *handRig) query(row *Row, pairs []traversal.LinkTri, hits []int8) {
	clear(hits)
	objects := len(r.scene.Objects)
	for _, p := range pairs {
		k := int(p.Link)*objects + int(r.scene.Object[p.Tri])
		if hits[k] == 2 {
			continue
		}
		if r.exact.LinkTriangle(int(p.Link), r.poses[p.Link], r.scene.Triangle(int(p.Tri))) {
			hits[k] = 2
		} else {
			hits[k] = 1
		}
	}
	for _, v := range hits {
		if v > 0 {
			row.count(v == 2)
		}
	}
}
