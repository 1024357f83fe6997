package daemon

import (
	"fmt"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/narrow"
)

// Pipeline turns glove samples into contacts. It owns every buffer it
// uses, so a frame allocates nothing once they have grown.
type Pipeline struct {
	Hand   *handmodel.Hand
	Cal    *handmodel.Calibration
	Scene  *env.Tree
	Hier   *cab.Hierarchy
	Refit  cab.Refitter
	Query  cab.SceneQuery
	Solver *narrow.Solver
	// Angles and Poses are the last frame's joint angles and link
	// transforms.
	Angles handmodel.Angles
	Poses  []geom.Transform
	pairs  []narrow.Pair
}

// NewPipeline wires a hand, its calibration and a scene (whose objects'
// convexity is detected here if it was not). Links within proximity of an
// object are reported as near.
func NewPipeline(hand *handmodel.Hand, cal *handmodel.Calibration, scene *env.Mesh, proximity float64) (*Pipeline, error) {
	if !(proximity >= 0) {
		return nil, fmt.Errorf("daemon: proximity %v must be >= 0", proximity)
	}
	if scene.Convex == nil {
		scene.DetectConvex()
	}
	tree, err := env.Build(scene, env.BuildOptions{})
	if err != nil {
		return nil, err
	}
	body, err := cab.HandBody(hand)
	if err != nil {
		return nil, err
	}
	hier, err := cab.Build(body)
	if err != nil {
		return nil, err
	}
	refit, err := cab.NewRefitter(cab.CAB, hier)
	if err != nil {
		return nil, err
	}
	links := make([]*narrow.Polytope, len(body.Links))
	for i, l := range body.Links {
		if links[i], err = narrow.NewPolytope(l.Verts, l.Tris); err != nil {
			return nil, fmt.Errorf("daemon: link %s: %w", l.Name, err)
		}
	}
	solver, err := narrow.NewSolver(links, scene)
	if err != nil {
		return nil, err
	}
	solver.Proximity = proximity
	p := &Pipeline{Hand: hand, Cal: cal, Scene: tree, Hier: hier, Refit: refit, Solver: solver, Poses: make([]geom.Transform, hand.NumLinks())}
	p.Query.Margin = proximity
	return p, nil
}

// Frame runs one sample through the pipeline with the hand's wrist at
// wrist; the results are in p.Solver.Contacts and p.Solver.Near.
func (p *Pipeline) Frame(s *devices.Sample, wrist geom.Transform) error {
	if err := p.Cal.Angles(s, &p.Hand.Limits, &p.Angles); err != nil {
		return err
	}
	p.Hand.Pose(&p.Angles, wrist, p.Poses)
	p.Refit.Refit(p.Poses)
	p.Query.Run(p.Hier, p.Scene)
	p.pairs = p.pairs[:0]
	for _, c := range p.Query.Pairs {
		p.pairs = append(p.pairs, narrow.Pair{Link: c.Link, Tri: c.Tri})
	}
	p.Solver.Solve(p.Poses, p.pairs)
	return nil
}
