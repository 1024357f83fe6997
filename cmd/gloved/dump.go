package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/session"
)

type dumpLine struct {
	T      float64   `json:"t"`
	Seq    uint64    `json:"seq"`
	Raw    []uint16  `json:"raw"`
	Angles []float64 `json:"angles"`
}

func runDump(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("dump", "gloved dump FILE [--calibration FILE]", out)
	calib := fs.String("calibration", "", "calibration to apply instead of the recording's own")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: dump takes one recording file", errUsage)
	}
	g, err := session.OpenGlove(session.Spec{Device: session.DeviceReplay, Recording: pos[0], Calibration: *calib, Speed: session.SpeedMax})
	if err != nil {
		return err
	}
	defer g.Close()
	cal := g.Cal
	enc := json.NewEncoder(out)
	var s devices.Sample
	var q handmodel.Angles
	line := dumpLine{Angles: make([]float64, handmodel.NumJoints)}
	dumped := 0
	for ctx.Err() == nil {
		err := g.Read(&s)
		if errors.Is(err, devices.ErrEnd) {
			break
		}
		if devices.Transient(err) {
			continue // a recorded glove error tail: no sample
		}
		if err != nil {
			return err
		}
		if err := cal.Angles(&s, &handmodel.DefaultLimits, &q); err != nil {
			return err
		}
		line.T, line.Seq, line.Raw = s.Time.Seconds(), s.Seq, s.Sensors()
		for j := range q {
			line.Angles[j] = round6(q[j])
		}
		if err := enc.Encode(&line); err != nil {
			return err
		}
		dumped++
	}
	if j := g.Jump(); j != nil {
		warn("%s: %v", pos[0], j)
	}
	if dumped == 0 && ctx.Err() == nil {
		return noSamples(pos[0])
	}
	warnSkipped(pos[0], g)
	if w := g.Warning(); w != nil {
		warn("%s: %v; dumped the samples before it", pos[0], w)
	}
	return nil
}

func round6(x float64) float64 { return roundTo(x, 1e6) }
