package session_test

import (
	"strings"
	"testing"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/opengloves"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/osctest"
	"github.com/gloved/gloved/session"
)

// openGlovesPipeline is a pipeline of the default hand, read by the
// OpenGloves layout's shipped calibration, on the grasp scene.
func openGlovesPipeline(t testing.TB) *session.Pipeline {
	t.Helper()
	cal, err := handmodel.DefaultCalibrationFor(opengloves.Layout)
	if err != nil {
		t.Fatal(err)
	}
	return pipelineFor(t, cal)
}

func pipelineFor(t testing.TB, cal *handmodel.Calibration) *session.Pipeline {
	t.Helper()
	hand, err := handmodel.New(handmodel.DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	p, err := session.NewPipeline(hand, cal, env.GraspScene(3), session.PipelineOptions{Proximity: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// parse returns the sample the firmware's line of v is at full scale max
// (after a newline: a parser takes the bytes before its first as a line
// cut off).
func parse(t testing.TB, max int, v *[opengloves.Channels]uint16) devices.Sample {
	t.Helper()
	p, err := opengloves.NewParser(max, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.Feed(opengloves.AppendLine([]byte("\n"), v, opengloves.Form{}))
	var s devices.Sample
	if ev, err := p.Next(&s); ev != devices.GotSample {
		t.Fatalf("the line gave %v, %v", ev, err)
	}
	return s
}

// TestAnOpenGlovesGlovesControlsAreInItsFrames: a frame of an OpenGloves
// glove carries its controls as its sample read them at the glove's full
// scale, 4095 or 1023: the joystick's ends -1 and 1, the trigger v/max,
// and each flag H..O the button of the contract's name; a frame of a
// CyberGlove carries none.
func TestAnOpenGlovesGlovesControlsAreInItsFrames(t *testing.T) {
	p := openGlovesPipeline(t)
	var f osc.Frame
	frame := func(s *devices.Sample) osc.Controls {
		t.Helper()
		if err := p.Frame(s, env.GraspWrist()); err != nil {
			t.Fatal(err)
		}
		p.FillFrame(&f)
		return f.Controls
	}
	for _, max := range []int{opengloves.MaxESP32, opengloves.MaxAVR} {
		var v [opengloves.Channels]uint16
		v[opengloves.JoyX], v[opengloves.JoyY], v[opengloves.Trigger] = 0, uint16(max), uint16(max/4)
		s := parse(t, max, &v)
		c := frame(&s)
		if !c.On || c.JoystickX != -1 || c.JoystickY != 1 || c.Trigger != float64(max/4)/float64(max) || c.Pressed != [len(osc.ControlButtons)]bool{} {
			t.Errorf("full scale %d: %+v", max, c)
		}
		for i, name := range osc.ControlButtons {
			v = [opengloves.Channels]uint16{}
			v[opengloves.Flag+i] = 1
			s := parse(t, max, &v)
			c := frame(&s)
			for k, pressed := range c.Pressed {
				if pressed != (k == i) {
					t.Errorf("full scale %d: flag %c pressed: %s is %v", max, 'H'+i, osc.ControlButtons[k], pressed)
				}
			}
			if channel := opengloves.Names[opengloves.Flag+i]; !strings.HasPrefix(channel, strings.ReplaceAll(name, " ", "_")) {
				t.Errorf("the contract's %q is sent from channel %s", name, channel)
			}
		}
	}
	cyber, err := handmodel.DefaultCalibration(22)
	if err != nil {
		t.Fatal(err)
	}
	p = pipelineFor(t, cyber)
	s := devices.Sample{N: 22}
	if c := frame(&s); c.On {
		t.Errorf("a CyberGlove's frame has controls %+v", c)
	}
}

// TestAFrameWithControlsAllocatesNothing: an OpenGloves glove's frame,
// its controls read, filled and encoded, allocates nothing once grown.
func TestAFrameWithControlsAllocatesNothing(t *testing.T) {
	p := openGlovesPipeline(t)
	var samples [2]devices.Sample
	for i := range samples {
		var v [opengloves.Channels]uint16
		v[opengloves.JoyX], v[opengloves.Flag+2*i] = uint16(1000*i), 1
		samples[i] = parse(t, opengloves.MaxESP32, &v)
	}
	var f osc.Frame
	var w osc.Writer
	addr := osc.HandAddresses("/gloved", "right")
	step := 0
	osctest.AllocatesNothing(t, func() {
		step++
		s := &samples[step%2]
		s.Seq = uint64(step)
		if err := p.Frame(s, env.GraspWrist()); err != nil {
			t.Fatal(err)
		}
		p.FillFrame(&f)
		w.Begin(1)
		osc.AppendFrame(&w, addr, &f)
		if !f.Controls.On {
			t.Fatal("no controls")
		}
	})
}
