package calibrator_test

import (
	"context"
	"fmt"
	"log"
	"math"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gloved/gloved/calibrator"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/handmodel"
)

// heldGlove reads, every millisecond, what its own calibration says for
// the pose its wearer holds.
type heldGlove struct {
	cal    *handmodel.Calibration
	pose   atomic.Pointer[handmodel.CalPose]
	closed atomic.Bool
}

func (g *heldGlove) Read(s *devices.Sample) error {
	time.Sleep(time.Millisecond)
	if g.closed.Load() {
		return devices.ErrClosed
	}
	var slots [layout.Slots]float64
	if err := g.cal.Readings(&g.pose.Load().Angle, &slots); err != nil {
		return err
	}
	var raw [layout.Slots]uint16
	for k, v := range slots {
		raw[k] = uint16(math.Round(min(max(v, 1), 254)))
	}
	layout.FromSlots(&raw, g.cal.Sensors, s)
	return nil
}

func (g *heldGlove) Close() error { g.closed.Store(true); return nil }

// wearer takes each pose when asked and writes the calibration.
type wearer struct{ g *heldGlove }

func (w wearer) Ask(_ context.Context, s calibrator.Step) error { w.g.pose.Store(s.Pose); return nil }
func (wearer) Recording(calibrator.Step)                        {}
func (wearer) Held(calibrator.Step, *calibrator.Hold, error)    {}
func (wearer) Show(*calibrator.Result)                          {}
func (wearer) Confirm(context.Context, *calibrator.Result) (calibrator.Decision, error) {
	return calibrator.Decision{Write: true}, nil
}

// Calibrate a glove whose index MCP sensor reads 45 flat and 0.0075 rad
// a count, and see where the file's numbers for it came from.
func Example() {
	cal, _ := handmodel.DefaultCalibration(22)
	cal.Sensor[layout.IndexMCP].Offset, cal.Sensor[layout.IndexMCP].Gain = 45, 0.0075
	g := &heldGlove{cal: cal}
	g.pose.Store(&handmodel.CalPoses[0])
	defer g.Close()

	info := devices.GloveInfo{Model: "cyberglove", Sensors: 22, Right: true}
	r, err := calibrator.Run(context.Background(), g, info, wearer{g}, calibrator.Opts{Hold: 50 * time.Millisecond})
	if err != nil {
		log.Fatal(err)
	}
	text, err := r.File()
	if err != nil {
		log.Fatal(err)
	}
	block := strings.Split(string(text), "[[sensor]]\n")[1+layout.IndexMCP]
	fmt.Print(block)
	// Output:
	// # fitted to (reading -> degrees) flat 45.0 -> 0, fist 243.0 -> 85,
	// #   spread 45.0 -> 0, thumb_across 45.0 -> 0, thumb_out 45.0 -> 0,
	// #   wrist_thumbward 45.0 -> 0; rms 0.0 degrees, worst 0.0 in fist.
	// name = "index_mcp"
	// offset = 45.000
	// gain = 0.00749258
}
