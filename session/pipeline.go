package session

import (
	"context"
	"fmt"
	"time"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/contact"
	_ "github.com/gloved/gloved/contact/all" // the contact methods
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handcontact"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/selfcontact"
)

// MaxProximity bounds PipelineOptions.Proximity (m): a band of a metre
// holds a hand's reach; beyond it every object of a room is near.
const MaxProximity = 1.0

// ProximityInRange reports whether p is a band from 0 to MaxProximity,
// what a config's frame.proximity_m and the commands' --proximity take.
func ProximityInRange(p float64) bool { return p >= 0 && p <= MaxProximity }

// WorkersInRange reports whether n is 0 (one per CPU, at most
// contact.MaxWorkers) to contact.MaxWorkers, what a config's
// frame.workers and the commands' --workers take.
func WorkersInRange(n int) bool { return n >= 0 && n <= contact.MaxWorkers }

// PipelineOptions tune the frame pipeline.
type PipelineOptions struct {
	// Proximity is the band (m) within which links that do not touch an
	// object are reported as near; 0 reports none.
	Proximity float64
	// SkipTris leaves each contact's count of touched triangles at 0: on
	// a deep grasp of a finely tessellated object it is most of the frame.
	SkipTris bool
	// SelfContact turns self-contact (pinch, fist, links touching links)
	// on; Self tunes it (zero: selfcontact.DefaultOptions). The daemon
	// turns it on unless the config's [self] enabled is false.
	SelfContact bool
	Self        selfcontact.Options
	// Methods names the contact method of scene objects by their names
	// (contact.Options.Methods); the others get the automatic choice.
	Methods map[string]string
	// NoAccel turns every acceleration of the contact methods off
	// (contact.Options.NoAccel): slower, the same answers.
	NoAccel bool
	// Workers is how many goroutines may answer a costly frame's
	// candidates, pair by pair (contact.Options.Workers; 0:
	// one per CPU); SplitAbove is how costly (contact.Options.SplitAbove).
	Workers    int
	SplitAbove time.Duration
	// Shared keeps what the scene's objects prepare (their trees, their
	// grids) for every pipeline of the same scene: the hands of a daemon,
	// a glove's session opened again. Nil: the pipeline's own.
	Shared *contact.Shared
}

// Pipeline turns glove samples into contacts. It owns every buffer it
// uses, so a frame allocates nothing once they have grown.
type Pipeline struct {
	hand  *handmodel.Hand
	cal   *handmodel.Calibration
	hier  *cab.Hierarchy
	refit cab.Refitter
	// scene is the scene, each object with its contact method: it finds
	// the frame's candidates (the traversal) and answers them.
	scene *contact.Scene
	self  *selfcontact.Detector // nil: off
	// part is the hand's part in tests against other hands: the same
	// hierarchy and hulls.
	part handcontact.Hand

	angles handmodel.Angles
	poses  []geom.Transform
	// controls are the glove's own controls, read from each sample.
	controls controls
	// refitted: hier's boxes are this frame's (a frame the scene passes
	// over refits them only when asked, refitBoxes).
	refitted bool
	stages   [NumStages]time.Duration

	// quats keep each link's rotation, as FillFrame sends it, in one
	// hemisphere over the sample stream; seq is the last frame's sample
	// number: one that does not go forward (a looping replay's next
	// pass) starts a new stream (restart), whose quaternions start again
	// with W >= 0.
	quats   []geom.QuatTrack
	seq     uint64
	framed  bool
	restart bool
}

// NewPipeline wires a hand, its calibration and a scene (whose objects'
// convexity is detected here if it was not), each object of the scene
// prepared by its contact method.
func NewPipeline(hand *handmodel.Hand, cal *handmodel.Calibration, scene *env.Mesh, o PipelineOptions) (*Pipeline, error) {
	if scene.Convex == nil {
		scene.DetectConvex()
	}
	part, cs, err := handScene(hand, scene, o)
	if err != nil {
		return nil, err
	}
	refit, err := cab.NewRefitter(cab.CAB, part.Hier)
	if err != nil {
		return nil, err
	}
	p := &Pipeline{hand: hand, cal: cal, hier: part.Hier, refit: refit, scene: cs, part: part, poses: make([]geom.Transform, hand.NumLinks()), quats: make([]geom.QuatTrack, hand.NumLinks()),
		controls: newControls(cal.Layout())}
	if o.SelfContact {
		if o.Self == (selfcontact.Options{}) {
			o.Self = selfcontact.DefaultOptions
		}
		if p.self, err = selfcontact.New(hand, part.Links, o.Self); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// handScene is hand's part in contact tests and the scene, each object
// prepared by its contact method for the hand's links.
func handScene(hand *handmodel.Hand, scene *env.Mesh, o PipelineOptions) (handcontact.Hand, *contact.Scene, error) {
	part, err := handcontact.NewHand(hand)
	if err != nil {
		return part, nil, fmt.Errorf("session: %w", err)
	}
	links, err := contact.NewLinks(part.Hier.Body, part.Links)
	if err != nil {
		return part, nil, err
	}
	cs, err := contact.NewScene(scene, links, contact.Options{Proximity: o.Proximity, CountTris: !o.SkipTris, NoAccel: o.NoAccel, Methods: o.Methods, Shared: o.Shared, Workers: o.Workers, SplitAbove: o.SplitAbove})
	if err != nil {
		return part, nil, fmt.Errorf("session: %w", err)
	}
	return part, cs, nil
}

// PrepareScene prepares, into a new contact.Shared for scene, what every
// pipeline of the scene under o takes from o.Shared: each object's tree
// and signed-distance data and its method's grids, which NewPipeline
// would otherwise build for the first hand. What the objects prepare
// does not depend on the hand, so the default hand's links serve. A
// reload prepares its next scene so while the running daemon goes on;
// ctx's end gives it up.
func PrepareScene(ctx context.Context, scene *env.Mesh, o PipelineOptions) (*contact.Shared, error) {
	if scene.Convex == nil {
		scene.DetectConvex()
	}
	hand, err := handmodel.New(handmodel.DefaultParams)
	if err != nil {
		return nil, fmt.Errorf("session: %w", err)
	}
	o.Shared = contact.NewSharedContext(ctx, scene)
	if _, _, err := handScene(hand, scene, o); err != nil {
		return nil, err
	}
	return o.Shared, nil
}

// Frame runs one sample through the pipeline with the hand's wrist at
// wrist; the results are in Contacts and Near.
func (p *Pipeline) Frame(s *devices.Sample, wrist geom.Transform) error {
	t0 := time.Now()
	if err := p.cal.Angles(s, &p.hand.Limits, &p.angles); err != nil {
		return err
	}
	p.controls.read(s)
	p.hand.Pose(&p.angles, wrist, p.poses)
	t1 := time.Now()
	// A frame whose links are all proven beyond the band of every object
	// needs neither the refit nor the traversal (contact.Scene.PassOver);
	// the refit waits until something asks for the boxes (HandPose).
	passed := p.scene.PassOver(p.poses)
	p.refitted = false
	t2 := time.Now()
	var refit time.Duration
	if !passed {
		p.refitBoxes()
		refit = time.Since(t2)
		p.scene.Traverse(p.hier, p.poses)
	}
	t3 := time.Now()
	p.scene.Solve(p.poses)
	t4 := time.Now()
	var self time.Duration // 0 when self-contact is off: it did not run
	if p.self != nil {
		if err := p.self.Frame(&p.angles, p.poses); err != nil {
			return err
		}
		self = time.Since(t4)
	}
	if p.framed && s.Seq <= p.seq {
		p.restart = true
	}
	p.seq, p.framed = s.Seq, true
	p.stages = [NumStages]time.Duration{StagePose: t1.Sub(t0), StageRefit: refit, StageTraverse: t3.Sub(t1) - refit, StageNarrow: t4.Sub(t3), StageSelf: self}
	return nil
}

// Contacts returns the last frame's contacts, ordered by link then object.
func (p *Pipeline) Contacts() []contact.Contact { return p.scene.Contacts }

// Near returns the last frame's links within the proximity band of an
// object they do not touch.
func (p *Pipeline) Near() []contact.Near { return p.scene.Near }

// Self returns the self-contact detector (nil when it is off): the last
// frame's self-contacts, pinch and fist events and distances.
func (p *Pipeline) Self() *selfcontact.Detector { return p.self }

// Angles returns the last frame's joint angles.
func (p *Pipeline) Angles() *handmodel.Angles { return &p.angles }

// Poses returns the last frame's link transforms (link frame to world).
func (p *Pipeline) Poses() []geom.Transform { return p.poses }

// Stages returns how long each stage of the last frame took; StageOSC is
// the caller's to time.
func (p *Pipeline) Stages() [NumStages]time.Duration { return p.stages }

// Hand returns the hand model.
func (p *Pipeline) Hand() *handmodel.Hand { return p.hand }

// Body returns the hand's links as the hierarchy bounds them.
func (p *Pipeline) Body() *cab.Body { return p.hier.Body }

// HandPart returns the hand's part in tests against other hands
// (handcontact): its hierarchy and link hulls, only read.
func (p *Pipeline) HandPart() handcontact.Hand { return p.part }

// HandPose copies the last frame's link poses and refitted boxes into
// dst, for a test against another hand (on this goroutine or another).
func (p *Pipeline) HandPose(dst *handcontact.Pose) {
	p.refitBoxes()
	dst.Set(p.poses, p.hier)
}

// refitBoxes refits the hierarchy to the frame's poses, once a frame.
func (p *Pipeline) refitBoxes() {
	if !p.refitted {
		p.refit.Refit(p.poses)
		p.refitted = true
	}
}

// Scene returns the scene.
func (p *Pipeline) Scene() *env.Mesh { return p.scene.Mesh }

// Contact returns the scene as its contact methods prepared it: each
// object's method (Method), and the last frame's candidates.
func (p *Pipeline) Contact() *contact.Scene { return p.scene }
