package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/daemon"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

type contactJSON struct {
	Link   string     `json:"link"`
	Object string     `json:"object"`
	Depth  float64    `json:"depth"`
	Point  [3]float64 `json:"point"`
	Normal [3]float64 `json:"normal"`
	Tris   int        `json:"tris"`
	Exact  bool       `json:"exact"`
}

type nearJSON struct {
	Link     string     `json:"link"`
	Object   string     `json:"object"`
	Distance float64    `json:"distance"`
	Point    [3]float64 `json:"point"`
}

type frameJSON struct {
	Frame    int           `json:"frame"`
	T        float64       `json:"t"`
	Contacts []contactJSON `json:"contacts"`
	Near     []nearJSON    `json:"near"`
}

func vec(v mgl64.Vec3) [3]float64 { return [3]float64{round9(v[0]), round9(v[1]), round9(v[2])} }

func round9(x float64) float64 {
	const k = 1e9
	if x >= 0 {
		return float64(int64(x*k+0.5)) / k
	}
	return -float64(int64(-x*k+0.5)) / k
}

func runContacts(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("contacts", "gloved contacts --scene FILE[,FILE] (--recording FILE | --sim) [--motion M] [--frames N] [--wrist POSE] [--proximity M] [--calibration FILE] [--json]", out)
	scenes := fs.String("scene", "", "scene files (OBJ, STL, glTF), comma-separated")
	recPath := fs.String("recording", "", "a recording to replay (as fast as possible)")
	sim := fs.Bool("sim", false, "drive the hand with the simulated glove instead")
	motion := fs.String("motion", "grasp", "the simulated glove's motion")
	frames := fs.Int("frames", 300, "frames of simulation")
	wristFlag := fs.String("wrist", "", `wrist pose "qw qx qy qz tx ty tz" (default: the recording's, else the identity)`)
	proximity := fs.Float64("proximity", 0.01, "report links closer than this (m) to an object they do not touch")
	calib := fs.String("calibration", "", "calibration file (default: the recording's, else the shipped one)")
	asJSON := fs.Bool("json", false, "one JSON object per frame")
	if pos, err := parseInterleaved(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	if *scenes == "" || (*recPath == "") == !*sim {
		return fmt.Errorf("%w: contacts needs --scene and exactly one of --recording FILE or --sim", errUsage)
	}
	scene := &env.Mesh{}
	for _, path := range strings.Split(*scenes, ",") {
		m, err := env.Load(path, env.LoadOptions{})
		if err != nil {
			return err
		}
		scene.Append(m)
	}
	var dev devices.Device
	var replay *devices.Replay
	sensors, right, calText := 22, true, ""
	if *sim {
		g, err := devices.NewSimGlove(devices.Motion(*motion), 22, 10*time.Millisecond, true)
		if err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		dev = g
	} else {
		r, err := devices.OpenReplay(*recPath, false)
		if err != nil {
			return err
		}
		defer r.Close()
		h := r.Header()
		sensors, right, calText, dev, replay = h.Sensors, h.Hand != "left", h.Calibration, r, r
	}
	var cal *handmodel.Calibration
	var err error
	switch {
	case *calib != "":
		cal, err = calibrationFor(*calib, sensors)
	case calText != "":
		cal, err = handmodel.ParseCalibration(*recPath+" (stored calibration)", []byte(calText))
	default:
		cal, err = handmodel.DefaultCalibration(sensors)
	}
	if err != nil {
		return err
	}
	params := handmodel.DefaultParams
	params.Right = right
	hand, err := handmodel.New(params)
	if err != nil {
		return err
	}
	p, err := daemon.NewPipeline(hand, cal, scene, *proximity)
	if err != nil {
		return err
	}
	wrist := geom.Identity()
	fixedWrist := *wristFlag != ""
	if fixedWrist {
		if wrist, err = parsePose(*wristFlag); err != nil {
			return fmt.Errorf("%w: --wrist: %v", errUsage, err)
		}
	}
	enc := json.NewEncoder(out)
	var s devices.Sample
	for frame := 0; ctx.Err() == nil; frame++ {
		if *sim && frame >= *frames {
			break
		}
		err := dev.Read(&s)
		if errors.Is(err, devices.ErrEnd) {
			break
		}
		if err != nil {
			continue // a recorded glove error: no sample this time
		}
		if replay != nil && !fixedWrist {
			if v, ok := replay.Wrist(); ok {
				wrist, _ = geom.FromQuat(mgl64.Quat{W: v[0], V: mgl64.Vec3{v[1], v[2], v[3]}}, mgl64.Vec3{v[4], v[5], v[6]})
			}
		}
		if err := p.Frame(&s, wrist); err != nil {
			return err
		}
		fj := frameJSON{Frame: frame, T: round9(s.Time.Seconds()), Contacts: []contactJSON{}, Near: []nearJSON{}}
		for _, c := range p.Solver.Contacts {
			fj.Contacts = append(fj.Contacts, contactJSON{Link: handmodel.Link(c.Link).String(), Object: scene.Objects[c.Object], Depth: round9(c.Depth), Point: vec(c.Point), Normal: vec(c.Normal), Tris: c.Tris, Exact: c.Exact})
		}
		for _, n := range p.Solver.Near {
			fj.Near = append(fj.Near, nearJSON{Link: handmodel.Link(n.Link).String(), Object: scene.Objects[n.Object], Distance: round9(n.Distance), Point: vec(n.Point)})
		}
		if *asJSON {
			if err := enc.Encode(&fj); err != nil {
				return err
			}
			continue
		}
		var parts []string
		for _, c := range fj.Contacts {
			parts = append(parts, fmt.Sprintf("%s in %s %.1f mm", c.Link, c.Object, c.Depth*1e3))
		}
		for _, n := range fj.Near {
			parts = append(parts, fmt.Sprintf("%s near %s %.1f mm", n.Link, n.Object, n.Distance*1e3))
		}
		if len(parts) == 0 {
			parts = []string{"-"}
		}
		fmt.Fprintf(out, "frame %d t=%.3fs: %s\n", frame, fj.T, strings.Join(parts, ", "))
	}
	if replay != nil {
		if w := replay.Warning(); w != nil {
			fmt.Fprintf(os.Stderr, "gloved: warning: %s: %v\n", *recPath, w)
		}
	}
	return nil
}
