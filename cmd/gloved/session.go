package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/gloved/gloved/devices/replay"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/selfcontact"
	"github.com/gloved/gloved/session"
)

// sessionOpts are the flags that choose an offline session: what
// `contacts`, `export` and `bench pipeline` share.
type sessionOpts struct {
	scenes, recording, calibration, motion, mesh string
	sim                                          bool
	frames                                       int
	proximity                                    float64
	wrist                                        *poseFlag
	noAccel                                      *bool
	workers                                      *int
	fs                                           *flag.FlagSet // the flags given, for Spec.NormalizeWritten
}

// addSessionFlags declares the flags that choose a session.
func addSessionFlags(fs *flag.FlagSet) *sessionOpts {
	o := &sessionOpts{fs: fs}
	fs.StringVar(&o.scenes, "scene", "", "scene files (OBJ, STL, glTF), comma-separated; "+session.BuiltinScene+" is the shipped table with a ball")
	fs.StringVar(&o.recording, "recording", "", "a recording to replay (as fast as possible)")
	fs.BoolVar(&o.sim, "sim", false, "drive the hand with the simulated glove instead")
	fs.StringVar(&o.motion, "motion", "grasp", "the simulated glove's motion")
	fs.IntVar(&o.frames, "frames", 300, "frames of simulation; with --recording, the first N frames (default: all)")
	o.wrist = addPoseFlag(fs, "wrist-pose", "wrist", "the wrist's pose (default: the recording's, else the identity)")
	fs.Float64Var(&o.proximity, "proximity", 0.01, "report links closer than this (m) to an object they do not touch")
	fs.StringVar(&o.calibration, "calibration", "", "calibration file (default: the recording's, else the shipped one)")
	fs.StringVar(&o.mesh, "mesh", "", "a skinned hand (glTF/GLB with the WebXR joints) instead of the procedural hand")
	o.noAccel = addNoAccel(fs)
	o.workers = addWorkers(fs)
	return o
}

// spec is the session the flags name, run as fast as it goes.
func (o *sessionOpts) spec() (session.Spec, error) {
	if o.scenes == "" || (o.recording == "") == !o.sim {
		return session.Spec{}, fmt.Errorf("%w: needs --scene and exactly one of --recording FILE or --sim", errUsage)
	}
	if (o.sim || flagSet(o.fs, "frames")) && o.frames < 1 {
		return session.Spec{}, fmt.Errorf("%w: --frames %d: want at least 1", errUsage, o.frames)
	}
	s := session.Spec{Device: session.DeviceReplay, Recording: o.recording, Calibration: o.calibration, Speed: session.SpeedMax, Mesh: o.mesh}
	if o.sim {
		s.Device, s.Recording, s.Motion = session.DeviceSim, "", o.motion
	}
	var err error
	if s.Wrist, err = o.wrist.pose(); err != nil {
		return s, err
	}
	return s, flagSpec(s.NormalizeWritten(flagsWritten(o.fs)))
}

// open opens the session the flags name, with the pipeline options opt
// (its proximity from --proximity).
func (o *sessionOpts) open(opt session.PipelineOptions) (*session.Session, error) {
	if err := pipelineFlags(o.proximity, *o.workers); err != nil {
		return nil, err
	}
	spec, err := o.spec()
	if err != nil {
		return nil, err
	}
	files, err := sceneFlag(o.scenes)
	if err != nil {
		return nil, err
	}
	scene, err := session.LoadScene(files, "")
	if err != nil {
		return nil, err
	}
	warnScene(scene)
	opt.Proximity, opt.NoAccel, opt.Workers = o.proximity, *o.noAccel, *o.workers
	return session.Open(spec, scene, opt)
}

// sceneFlag is the scene files a --scene flag lists, comma-separated: an
// empty name, or a built-in scene there is none of, is a usage error
// naming the flag.
func sceneFlag(list string) ([]session.SceneFile, error) {
	files := session.ScenePaths(list)
	for _, f := range files {
		if f.Path == "" {
			return nil, fmt.Errorf("%w: --scene %q: an empty file name (a comma at an end, or two together): give the scene files comma-separated, such as a.obj,b.stl", errUsage, list)
		}
		if err := session.CheckBuiltin(f.Path); err != nil {
			return nil, fmt.Errorf("%w: --scene %w", errUsage, err)
		}
	}
	return files, nil
}

// inputs are the files the flags name for the session to read.
func (o *sessionOpts) inputs() []inputFile {
	in := []inputFile{{"--recording", o.recording}, {"--calibration", o.calibration}, {"--mesh", o.mesh}}
	for _, f := range session.ScenePaths(o.scenes) {
		if f.Path != session.BuiltinScene {
			in = append(in, inputFile{"--scene", f.Path})
		}
	}
	return in
}

// limit is how many frames to run: --frames of a simulation (300 unless
// given) or, when given, the first of a recording's; else all of them.
func (o *sessionOpts) limit() int {
	if o.sim || flagSet(o.fs, "frames") {
		return o.frames
	}
	return 0
}

// runFrames runs the session's frames through each (Session.Each), and
// refuses a recording that held none: a command that printed nothing and
// succeeded would read as a session without contacts.
func runFrames(ctx context.Context, s *session.Session, limit int, each func() error) error {
	if err := s.Each(ctx, limit, each); err != nil {
		return err
	}
	return heldSamples(ctx, s)
}

// heldSamples refuses a replayed session that ran (ctx not done) and
// made no frame.
func heldSamples(ctx context.Context, s *session.Session) error {
	if s.Frames == 0 && s.Spec.Device == session.DeviceReplay && ctx.Err() == nil {
		return noSamples(s.Spec.Recording)
	}
	return nil
}

// noSamples is the error of a recording at path that gave no sample: the
// one a daemon's replay hand refuses it with (replay.HoldsSamples, which
// reads it again to say what it holds: nothing, or damaged samples alone,
// before the damage it ends at, if any).
func noSamples(path string) error {
	if err := replay.HoldsSamples(path); err != nil {
		return err
	}
	return &replay.NoSamplesError{Path: path}
}

// warnScene says what loading changed in the scene's files to use them
// (env.Mesh.Warnings), one line each.
func warnScene(m *env.Mesh) {
	for _, w := range m.Warnings {
		warn("%s", w)
	}
}

// warnDamage tells the user what was wrong with a damaged recording, if it
// was: a jump in its clock, played through, damaged samples skipped, and
// the damage it ends at.
func warnDamage(s *session.Session) {
	if j := s.Jump(); j != nil {
		warn("%s: %v", s.Spec.Recording, j)
	}
	warnSkipped(s.Spec.Recording, s.Glove)
	if first, n := s.BadWrist(); first != nil {
		warn("%s: %d damaged wrist poses skipped, the wrist kept as it was (the first: %v)", s.Spec.Recording, n, first)
	}
	if w := s.Warning(); w != nil {
		warn("%s: %v; used the frames before it", s.Spec.Recording, w)
	}
}

// frameRecord is the frame's contacts as `gloved contacts --json` prints them.
func frameRecord(s *session.Session) frameJSON {
	p := s.Pipeline
	objects := p.Scene().Objects
	fj := frameJSON{Frame: s.Frames - 1, T: round9(s.Sample.Time.Seconds()), Contacts: []contactJSON{}, Near: []nearJSON{}, Self: []selfJSON{}, Pinch: []pinchJSON{}}
	for _, c := range p.Contacts() {
		fj.Contacts = append(fj.Contacts, contactJSON{Link: handmodel.Link(c.Link).String(), Object: objects[c.Object], Depth: round9(c.Depth), Point: vec(c.Point), Normal: vec(c.Normal), Tris: c.Tris, Exact: c.Exact})
	}
	for _, n := range p.Near() {
		fj.Near = append(fj.Near, nearJSON{Link: handmodel.Link(n.Link).String(), Object: objects[n.Object], Distance: round9(n.Distance), Point: vec(n.Point)})
	}
	if d := p.Self(); d != nil {
		selfRecord(d, &fj)
	}
	return fj
}

// selfRecord adds the frame's self-contacts, pinches and fist to fj.
func selfRecord(d *selfcontact.Detector, fj *frameJSON) {
	for _, c := range d.Contacts {
		fj.Self = append(fj.Self, selfJSON{Links: [2]string{c.A.String(), c.B.String()}, Depth: round9(c.Depth), Point: vec(c.Point)})
	}
	event := func(kind selfcontact.EventKind, finger handmodel.Link) string {
		for _, e := range d.Events {
			if e.Kind == kind && e.Finger == finger {
				return map[bool]string{true: "begin", false: "end"}[e.Begin]
			}
		}
		return ""
	}
	for f, tip := range selfcontact.FingerTips {
		name := tip.String()
		fj.Pinch = append(fj.Pinch, pinchJSON{Finger: name[:len(name)-1], Distance: round9(d.PinchDistance(f)), Pinching: d.Pinching(f), Event: event(selfcontact.PinchEvent, tip)})
	}
	fj.Fist = &fistJSON{Closed: d.InFist(), Event: event(selfcontact.FistEvent, handmodel.Palm)}
}

// warnSkipped says how many damaged samples a replay of path skipped, if
// any: they are not in what a command wrote.
func warnSkipped(path string, g *session.Glove) {
	if n := g.Damaged(); n > 0 {
		warn("%s: damaged samples skipped: %d (a reading beyond the glove's resolution, or a broken record)", path, n)
	}
}
