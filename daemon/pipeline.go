package daemon

import (
	"fmt"
	"time"

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
	Hand *handmodel.Hand
	Cal  *handmodel.Calibration
	// Scene is the whole scene; Surfaces the OBBTree over the triangles of
	// its non-convex objects (nil if there are none), whose triangle i is
	// the scene's surfaceTri[i]. Convex objects are solids: each is tested
	// as one box against the hand's hierarchy.
	Scene      *env.Mesh
	Surfaces   *env.Tree
	surfaceTri []int32
	solidBox   []geom.OBB
	solidObj   []int32
	Hier       *cab.Hierarchy
	Refit      cab.Refitter
	Query      cab.SceneQuery
	Solver     *narrow.Solver
	// Angles and Poses are the last frame's joint angles and link
	// transforms.
	Angles handmodel.Angles
	Poses  []geom.Transform
	// Stages are the last frame's durations of each stage.
	Stages [NumStages]time.Duration
	pairs  []narrow.Pair
	solids []narrow.SolidPair
	near   []int32
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
	p := &Pipeline{Hand: hand, Cal: cal, Scene: scene, Hier: hier, Refit: refit, Solver: solver, Poses: make([]geom.Transform, hand.NumLinks())}
	p.Query.Margin = proximity
	surf, orig := scene.Subset(func(i int) bool { return !solver.Solid(int(scene.Object[i])) })
	if len(surf.Tris) > 0 {
		if p.Surfaces, err = env.Build(surf, env.BuildOptions{}); err != nil {
			return nil, err
		}
		p.surfaceTri = orig
	}
	for o := range scene.Objects {
		if t := solver.ObjectTree(o); t != nil {
			p.solidObj = append(p.solidObj, int32(o))
			p.solidBox = append(p.solidBox, t.Nodes[0].Box)
		}
	}
	return p, nil
}

// Frame runs one sample through the pipeline with the hand's wrist at
// wrist; the results are in p.Solver.Contacts and p.Solver.Near.
func (p *Pipeline) Frame(s *devices.Sample, wrist geom.Transform) error {
	t0 := time.Now()
	if err := p.Cal.Angles(s, &p.Hand.Limits, &p.Angles); err != nil {
		return err
	}
	p.Hand.Pose(&p.Angles, wrist, p.Poses)
	t1 := time.Now()
	p.Refit.Refit(p.Poses)
	t2 := time.Now()
	p.pairs = p.pairs[:0]
	if p.Surfaces != nil {
		p.Query.Run(p.Hier, p.Surfaces)
		for _, c := range p.Query.Pairs {
			p.pairs = append(p.pairs, narrow.Pair{Link: c.Link, Tri: p.surfaceTri[c.Tri]})
		}
	}
	p.solids = p.solids[:0]
	for k, o := range p.solidObj {
		p.near = p.Query.LinksNear(p.Hier, &p.solidBox[k], p.near[:0])
		for _, l := range p.near {
			p.solids = append(p.solids, narrow.SolidPair{Link: l, Object: o})
		}
	}
	t3 := time.Now()
	p.Solver.Solve(p.Poses, p.pairs, p.solids)
	t4 := time.Now()
	p.Stages = [NumStages]time.Duration{StagePose: t1.Sub(t0), StageRefit: t2.Sub(t1), StageTraverse: t3.Sub(t2), StageNarrow: t4.Sub(t3)}
	return nil
}

// Stage indexes the pipeline's stages.
type Stage int

// The stages, in order; StageOSC is timed by the daemon.
const (
	StagePose     Stage = iota // calibration and forward kinematics
	StageRefit                 // CAB refit
	StageTraverse              // hierarchy against the scene
	StageNarrow                // exact contacts
	StageOSC                   // encoding and sending the bundle
	NumStages
)

var stageNames = [NumStages]string{"pose", "refit", "traverse", "narrow", "osc"}

func (s Stage) String() string { return stageNames[s] }
