package calibrator

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handcontact"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/view"
)

// The page's two hands: the glove's, and the pose to match.
const (
	gloveHand  = 0
	targetHand = 1
)

// Page is the UI of the live page (`gloved calibrate --view`). While a
// pose is asked, the page shows what to do and why, and in 3-D the
// glove's hand moving live (through the fallback calibration) inside the
// pose's target, a see-through ghost to match; *Ready* takes the hold.
// After the fit it lists each pose and each sensor's fit, and shows a
// chosen pose's fitted hand inside its target; *Write*, *Hold again* (the
// ticked poses) and *Quit* answer.
type Page struct {
	srv     *view.Server
	hand    *handmodel.Hand
	cal     *handmodel.Calibration // the live hand's
	sensors int
	wrist   geom.Transform // where the hands are shown

	mu     sync.Mutex // guards everything below; Live runs on the glove's goroutine
	state  view.Calibration
	result *Result // under review, else nil: the glove's hand shows a fitted pose
	q      handmodel.Angles
	links  []geom.Transform
	frame  osc.Frame
	info   view.Info
	// err is a state the pages could not be sent: the session cannot go
	// on, and the next wait for an answer returns it.
	err error
}

var (
	_ UI   = (*Page)(nil)
	_ Live = (*Page)(nil)
)

// NewPage shows a calibration of the glove info describes on srv's pages:
// its hand is the default-sized one of the glove's side, posed live by
// cal (the session's fallback).
func NewPage(srv *view.Server, info devices.GloveInfo, cal *handmodel.Calibration) (*Page, error) {
	params := handmodel.DefaultParams
	params.Right = info.Right
	hand, err := handmodel.New(params)
	if err != nil {
		return nil, fmt.Errorf("calibrator: %w", err)
	}
	part, err := handcontact.NewHand(hand)
	if err != nil {
		return nil, fmt.Errorf("calibrator: %w", err)
	}
	body := part.Hier.Body
	target := view.NewHand("target", hand, body)
	target.Ghost = true
	sc := view.Scene{Title: "calibration", Live: true,
		Hands: []view.Hand{view.NewHand(info.Hand()+" glove", hand, body), target}}
	if err := srv.SetScene(sc); err != nil {
		return nil, err
	}
	return &Page{srv: srv, hand: hand, cal: cal, sensors: info.Sensors, links: make([]geom.Transform, hand.NumLinks()), wrist: sideOn(info.Right)}, nil
}

// sideOn is the wrist pose that turns the hand's thumb side, and a little
// of its palm, toward the page's camera (which looks from +x, +y, +z), so
// that finger flexion shows.
func sideOn(right bool) geom.Transform {
	thumb := 1.0
	if right {
		thumb = -1 // a right hand's thumb is on its -x side
	}
	q := mgl64.QuatBetweenVectors(mgl64.Vec3{thumb, 0, -0.5}.Normalize(), mgl64.Vec3{0.6, 0, 1}.Normalize())
	x, _ := geom.FromQuat(q, geom.Vec3{})
	return x
}

// Live poses the glove's hand from a sample, except while a fit is under
// review.
func (p *Page) Live(s *devices.Sample) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.result != nil || p.cal.Angles(s, &handmodel.DefaultLimits, &p.q) != nil {
		return
	}
	p.info.T = s.Time
	p.publish(gloveHand, &p.q, "streaming")
}

// publish sends hand posed at q to the page; p.mu is held.
func (p *Page) publish(hand int, q *handmodel.Angles, status string) {
	p.hand.Pose(q, p.wrist, p.links)
	p.frame.Links = p.frame.Links[:0]
	for _, x := range p.links {
		p.frame.Links = append(p.frame.Links, osc.PoseOf(x))
	}
	p.frame.Joints = append(p.frame.Joints[:0], q[:]...)
	p.frame.Seq++
	p.info.Status = status
	p.srv.Publish(hand, &p.frame, &p.info)
}

// set shows c as the next state; p.mu is held. A state that cannot be
// sent is kept as p.err (UI methods without an error to return leave it
// for the next wait for an answer).
func (p *Page) set(c view.Calibration) error {
	c.Serial = p.state.Serial + 1
	if err := p.srv.SetCalibration(&c); err != nil {
		p.err = fmt.Errorf("calibrator: the page: %w", err)
		return p.err
	}
	p.state = c
	return nil
}

// Ask shows the pose and its target and waits for Ready; Quit quits.
func (p *Page) Ask(ctx context.Context, s Step) error {
	p.mu.Lock()
	p.result = nil
	target, _ := s.Pose.Joints(p.sensors) // the pinned joints are the review's
	p.publish(targetHand, &target, "target")
	err := p.set(view.Calibration{Phase: "ask", Step: s.Index, Count: s.Count, Attempt: s.Attempt, Pose: s.Pose.Name, Do: s.Pose.Do, Why: s.Pose.Why,
		HoldS: s.Hold.Seconds(), Note: p.state.Note, Rejected: p.state.Rejected})
	serial := p.state.Serial
	p.mu.Unlock()
	if err != nil {
		return err
	}
	for {
		a, err := p.next(ctx, serial)
		switch {
		case err != nil:
			return err
		case a.Answer == "ready":
			return nil
		case a.Answer == "quit":
			return ErrQuit
		}
	}
}

// next waits for a page's answer to state serial, unless a state could
// not be sent.
func (p *Page) next(ctx context.Context, serial int) (view.Answer, error) {
	p.mu.Lock()
	err := p.err
	p.mu.Unlock()
	if err != nil {
		return view.Answer{}, err
	}
	for {
		select {
		case <-ctx.Done():
			return view.Answer{}, ctx.Err()
		case a := <-p.srv.Answers():
			if a.Serial == serial {
				return a, nil
			}
		}
	}
}

// Recording says the hold has begun.
func (p *Page) Recording(Step) {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.state
	c.Phase, c.Note, c.Rejected = "recording", "", false
	p.set(c)
}

// Held says how the hold went; the next Ask shows it.
func (p *Page) Held(_ Step, h *Hold, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.state
	c.Phase, c.Rejected = "held", err != nil
	switch {
	case err == nil:
		c.Note = fmt.Sprintf("%s held: %d samples, every sensor within %.0f counts.", c.Pose, h.Samples, maxSpread(h))
	default:
		c.Note = fmt.Sprintf("%s not held: %s. Try again.", c.Pose, strings.TrimPrefix(err.Error(), "calibrator: "))
	}
	p.set(c)
}

// Show lists the fit and shows the first pose's fitted hand.
func (p *Page) Show(r *Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.result = r
	c := view.Calibration{Phase: "review", Count: len(r.Steps), Note: "Check each pose, then write the calibration or hold poses again."}
	for i := range r.Steps {
		c.Poses = append(c.Poses, reviewPose(&r.Steps[i]))
	}
	for i := range r.Fits {
		c.Sensors = append(c.Sensors, reviewSensor(r, i))
	}
	p.showPose(c, 0)
}

// showPose shows pose i's fitted hand inside its target; p.mu is held.
func (p *Page) showPose(c view.Calibration, i int) error {
	st := &p.result.Steps[i]
	p.publish(gloveHand, &st.Fitted, "fitted")
	p.publish(targetHand, &st.Target, "target")
	c.Shown = i
	return p.set(c)
}

// reviewPose is a held pose's worst joint: fitted against target.
func reviewPose(st *StepResult) view.CalibrationPose {
	out := view.CalibrationPose{Name: st.Pose.Name, Attempts: st.Attempts}
	for j, pinned := range st.Pinned {
		if d := math.Abs(degrees(st.Fitted[j] - st.Target[j])); pinned && d > out.WorstDeg {
			out.WorstDeg, out.WorstJoint = d, handmodel.Joint(j).String()
		}
	}
	return out
}

// reviewSensor is sensor i's fit, as the terminal's table has it.
func reviewSensor(r *Result, i int) view.CalibrationSensor {
	f, c := &r.Fits[i], &r.Cal.Sensor[i]
	out := view.CalibrationSensor{Name: c.Name, Offset: finite(c.Offset), Gain: finite(c.Gain), RMSDeg: finite(degrees(f.RMS)),
		Reversed: f.Reversed(&r.Fallback.Sensor[i]), Saturated: f.Saturated, Fallback: f.Fallback}
	if f.Worst >= 0 {
		out.WorstDeg, out.WorstPose = finite(degrees(f.Points[f.Worst].Residual)), f.Points[f.Worst].Pose
	}
	return out
}

// finite is x, or 0 for what JSON cannot carry (a fit of no points).
func finite(x float64) float64 {
	if !geom.Finite(x) {
		return 0
	}
	return x
}

// Confirm waits for Write, Quit, or the poses to hold again; a pose
// clicked in the list is shown meanwhile.
func (p *Page) Confirm(ctx context.Context, r *Result) (Decision, error) {
	for {
		p.mu.Lock()
		serial := p.state.Serial
		p.mu.Unlock()
		a, err := p.next(ctx, serial)
		if err != nil {
			return Decision{}, err
		}
		switch a.Answer {
		case "write":
			return Decision{Write: true}, nil
		case "quit":
			return Decision{}, nil
		case "redo":
			if redo, ok := posesIn(a.Poses, len(r.Steps)); ok {
				return Decision{Redo: redo}, nil
			}
		case "show":
			if len(a.Poses) == 1 && a.Poses[0] >= 0 && a.Poses[0] < len(r.Steps) {
				p.mu.Lock()
				err := p.showPose(p.state, a.Poses[0])
				p.mu.Unlock()
				if err != nil {
					return Decision{}, err
				}
			}
		}
	}
}

// posesIn returns poses sorted without repeats if there is one at least
// and each is one of n.
func posesIn(poses []int, n int) ([]int, bool) {
	if len(poses) == 0 {
		return nil, false
	}
	for _, i := range poses {
		if i < 0 || i >= n {
			return nil, false
		}
	}
	out := slices.Clone(poses)
	slices.Sort(out)
	return slices.Compact(out), true
}

// Done shows how the session ended: note says what was written, or why
// nothing was.
// It waits up to a second for the pages to have it.
func (p *Page) Done(note string, written bool) {
	p.mu.Lock()
	p.set(view.Calibration{Phase: "done", Note: note, Rejected: !written})
	p.mu.Unlock()
	p.srv.Settle(time.Second)
}
