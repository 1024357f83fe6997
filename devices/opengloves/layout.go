package opengloves

import (
	"fmt"

	"github.com/gloved/gloved/configs"
	"github.com/gloved/gloved/devices"
)

// The firmware's full scales: a LucidGloves firmware reads its sensors at
// ANALOG_MAX, 1023 on AVR boards (an Arduino Nano's 10-bit ADC) and 4095
// on an ESP32 (12 bits), and sends them so; the OpenGloves driver
// assumes 4095 unless told.
const (
	MaxAVR   = 1023
	MaxESP32 = 4095
)

// bitsOf returns the resolution of values up to max: 10 or 12 bits, which
// devices.Sample.Counts reads in the 8-bit counts of every calibration.
func bitsOf(max int) (uint8, error) {
	switch max {
	case MaxAVR:
		return 10, nil
	case MaxESP32:
		return devices.Bits12, nil
	}
	return 0, fmt.Errorf("opengloves: max = %d: want %d (an AVR board, such as an Arduino Nano) or %d (an ESP32)", max, MaxAVR, MaxESP32)
}

// CalibrationFile is the shipped default calibration's name in configs.
const CalibrationFile = "calibration-opengloves.toml"

// Stated how the channels move the hand's joints. A per-joint curl is
// its joint's, one to one, through its calibration (the shipped one
// gives full scale MCP 90, PIP 100, DIP 70 degrees: the ratio a
// whole-finger curl spreads by, its per-joint channels reading it). The
// thumb's metacarpal joint is the hand model's roll of the thumb across
// the palm, its MCP and IP are the model's. A splay is its finger's
// abduction: positive away from the middle finger (radially for the
// index, ulnarly for ring and little, which the hand model counts
// negative), the middle finger's radially, the thumb's away from the
// palm. The whole-finger curls (they reach the joints through the
// per-joint channels), the four fingers' metacarpal channels (the hand
// model has no joint there), the thumb's unused fourth and the controls
// move no joint; the controls are the layout's (devices.Control), which
// the daemon sends on OSC.
var (
	splayShares = [5][]devices.Share{
		devices.Moves("thumb_abduction"), devices.Moves("index_abduction"), devices.Moves("middle_abduction"),
		{{Joint: "ring_abduction", Gain: -1}}, {{Joint: "little_abduction", Gain: -1}},
	}
	thumbShares = [4][]devices.Share{devices.Moves("thumb_roll"), devices.Moves("thumb_mcp"), devices.Moves("thumb_ip"), nil}
)

// Names names the channels, in order, as a calibration names its sensors.
var Names = func() [Channels]string {
	var n [Channels]string
	for f, finger := range Fingers {
		n[Curl+f] = finger + "_curl"
		n[Splay+f] = finger + "_splay"
		for j := range 4 {
			name := jointNames[j]
			if f == 0 {
				name = thumbJoints[j]
			}
			n[Joint+4*f+j] = finger + "_" + name
		}
	}
	for c := JoyX; c < Channels; c++ {
		n[c] = control(c).String()
	}
	return n
}()

// joints returns the joints channel c moves.
func joints(c int) []devices.Share {
	switch {
	case c >= Splay && c < Splay+5:
		return splayShares[c-Splay]
	case c >= Joint && c < Joint+4:
		return thumbShares[c-Joint]
	case c >= Joint+4 && c < Joint+20 && (c-Joint)%4 != 0:
		f, j := (c-Joint)/4, (c-Joint)%4
		return devices.Moves(Fingers[f] + "_" + jointNames[j])
	}
	return nil
}

// Layout is an OpenGloves glove's: its Channels, their joints and the
// shipped calibration. Its Bits are the ESP32's 12; a sample of an AVR
// glove says 10 (Sample.Bits), and Sample.Counts reads both in the 8-bit
// counts the calibration is written in, so one layout and one
// calibration serve both.
var Layout = func() *devices.Layout {
	text, err := configs.Files.ReadFile(CalibrationFile)
	if err != nil {
		panic("opengloves: the shipped " + CalibrationFile + " is missing: " + err.Error())
	}
	l := &devices.Layout{Name: "opengloves", Bits: devices.Bits12, Calibration: text, CalibrationName: CalibrationFile}
	for c, name := range Names {
		l.Sensors = append(l.Sensors, devices.Channel{Name: name, Joints: joints(c), Control: control(c)})
	}
	return l
}()
