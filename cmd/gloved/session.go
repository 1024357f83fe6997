package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/daemon"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/recording"
	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

// session is a recorded or simulated glove session run offline through
// the pipeline, frame by frame, as fast as it goes: what `contacts`,
// `export` and `bench pipeline` share.
type session struct {
	scene      *env.Mesh
	pipe       *daemon.Pipeline
	dev        devices.Device
	replay     *recording.Replay
	wrist      geom.Transform
	fixedWrist bool
	frames     int // sim: how many to run
	n          int
	Sample     devices.Sample
	recPath    string
}

type sessionOpts struct {
	scenes, recording, calibration, wrist, motion string
	sim                                           bool
	frames                                        int
	proximity                                     float64
}

// addSessionFlags declares the flags that choose a session.
func addSessionFlags(fs *flag.FlagSet) *sessionOpts {
	o := &sessionOpts{}
	fs.StringVar(&o.scenes, "scene", "", "scene files (OBJ, STL, glTF), comma-separated; "+daemon.BuiltinScene+" is the shipped table with a ball")
	fs.StringVar(&o.recording, "recording", "", "a recording to replay (as fast as possible)")
	fs.BoolVar(&o.sim, "sim", false, "drive the hand with the simulated glove instead")
	fs.StringVar(&o.motion, "motion", "grasp", "the simulated glove's motion")
	fs.IntVar(&o.frames, "frames", 300, "frames of simulation")
	fs.StringVar(&o.wrist, "wrist", "", `wrist pose "qw qx qy qz tx ty tz" (default: the recording's, else the identity)`)
	fs.Float64Var(&o.proximity, "proximity", 0.01, "report links closer than this (m) to an object they do not touch")
	fs.StringVar(&o.calibration, "calibration", "", "calibration file (default: the recording's, else the shipped one)")
	return o
}

func openSession(o sessionOpts) (*session, error) {
	if o.scenes == "" || (o.recording == "") == !o.sim {
		return nil, fmt.Errorf("%w: needs --scene and exactly one of --recording FILE or --sim", errUsage)
	}
	s := &session{scene: &env.Mesh{}, frames: o.frames, wrist: geom.Identity(), recPath: o.recording}
	for _, path := range strings.Split(o.scenes, ",") {
		m, err := daemon.LoadSceneFile(path, env.LoadOptions{})
		if err != nil {
			return nil, err
		}
		s.scene.Append(m)
	}
	sensors, right, calText := 22, true, ""
	if o.sim {
		g, err := sim.New(sim.Motion(o.motion), 22, 10*time.Millisecond, true)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		s.dev = g
	} else {
		r, err := recording.OpenReplay(o.recording, false)
		if err != nil {
			return nil, err
		}
		h := r.Header()
		sensors, right, calText, s.dev, s.replay = h.Sensors, h.Hand != "left", h.Calibration, r, r
	}
	var cal *handmodel.Calibration
	var err error
	switch {
	case o.calibration != "":
		cal, err = calibrationFor(o.calibration, sensors)
	case calText != "":
		cal, err = handmodel.ParseCalibration(o.recording+" (stored calibration)", []byte(calText))
	default:
		cal, err = handmodel.DefaultCalibration(sensors)
	}
	if err != nil {
		s.dev.Close()
		return nil, err
	}
	params := handmodel.DefaultParams
	params.Right = right
	hand, err := handmodel.New(params)
	if err != nil {
		s.dev.Close()
		return nil, err
	}
	if s.pipe, err = daemon.NewPipeline(hand, cal, s.scene, o.proximity); err != nil {
		s.dev.Close()
		return nil, err
	}
	if o.wrist != "" {
		if s.wrist, err = parsePose(o.wrist); err != nil {
			s.dev.Close()
			return nil, fmt.Errorf("%w: --wrist: %v", errUsage, err)
		}
		s.fixedWrist = true
	}
	return s, nil
}

// next runs the next frame; false at the end of the session.
func (s *session) next() (bool, error) {
	for {
		if s.replay == nil && s.n >= s.frames {
			return false, nil
		}
		err := s.dev.Read(&s.Sample)
		if errors.Is(err, devices.ErrEnd) {
			return false, nil
		}
		if err != nil {
			continue // a recorded glove error: no sample this time
		}
		if s.replay != nil && !s.fixedWrist {
			if v, ok := s.replay.Wrist(); ok {
				s.wrist, _ = geom.FromQuat(mgl64.Quat{W: v[0], V: mgl64.Vec3{v[1], v[2], v[3]}}, mgl64.Vec3{v[4], v[5], v[6]})
			}
		}
		if err := s.pipe.Frame(&s.Sample, s.wrist); err != nil {
			return false, err
		}
		s.n++
		return true, nil
	}
}

// each runs the session's frames, calling fn after each, until the session
// ends, ctx is done or fn fails.
func (s *session) each(ctx context.Context, fn func() error) error {
	for ctx.Err() == nil {
		ok, err := s.next()
		if err != nil || !ok {
			return err
		}
		if err := fn(); err != nil {
			return err
		}
	}
	return nil
}

// warnDamage tells the user what was wrong with a damaged recording, if it was.
func (s *session) warnDamage() {
	if s.replay != nil && s.replay.Warning() != nil {
		warn("%s: %v; used the frames before it", s.recPath, s.replay.Warning())
	}
}

func (s *session) close() { s.dev.Close() }

// frameRecord is the frame's contacts as `gloved contacts --json` prints them.
func (s *session) frameRecord() frameJSON {
	p := s.pipe
	fj := frameJSON{Frame: s.n - 1, T: round9(s.Sample.Time.Seconds()), Contacts: []contactJSON{}, Near: []nearJSON{}}
	for _, c := range p.Solver.Contacts {
		fj.Contacts = append(fj.Contacts, contactJSON{Link: handmodel.Link(c.Link).String(), Object: s.scene.Objects[c.Object], Depth: round9(c.Depth), Point: vec(c.Point), Normal: vec(c.Normal), Tris: c.Tris, Exact: c.Exact})
	}
	for _, n := range p.Solver.Near {
		fj.Near = append(fj.Near, nearJSON{Link: handmodel.Link(n.Link).String(), Object: s.scene.Objects[n.Object], Distance: round9(n.Distance), Point: vec(n.Point)})
	}
	return fj
}
