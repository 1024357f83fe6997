package emulator

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove"
	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/devices/opengloves"
	"github.com/gloved/gloved/handmodel"
)

// Models are the units the emulator plays, named as --model and a
// [[hand]]'s device name them: New plays the CyberGlove generations,
// NewOpenGloves an OpenGloves firmware.
var Models = []string{string(cyberglove.ModelII), string(cyberglove.ModelIII), opengloves.Name}

// OpenGlovesOpts configures an emulated OpenGloves glove.
type OpenGlovesOpts struct {
	// Max is the firmware's full scale: opengloves.MaxESP32 (the default)
	// or opengloves.MaxAVR.
	Max int
	// Form says whether the lines carry the splays (a firmware built with
	// USING_SPLAY) and the per-joint curls.
	Form opengloves.Form
	// Source moves the hand: a CyberGlove's 22 slots in 8-bit counts, read
	// through the CyberGlove's shipped calibration into joint angles, which
	// the OpenGloves shipped calibration turns back into readings. So a
	// motion shows alike on both gloves, each read with its defaults.
	Source Source
	// Pose, if set, moves the hand instead of Source: a wearer holding
	// the calibration pose it returns for each time (Script.Playing),
	// whose joint angles (CalPose.Joints) Cal, the wearer's calibration
	// of the glove (nil: the shipped one), turns into readings, each
	// channel that moves a joint with Gaussian noise of standard
	// deviation Noise, in 8-bit counts.
	Pose  func(t time.Duration) *handmodel.CalPose
	Cal   *handmodel.Calibration
	Noise float64
	// Controls works the controls as a user would: the joystick turns
	// round its full circle every ControlsTurn, the A button pressed
	// while it points right and B while it points left. Without, the
	// joystick rests at mid scale and no button is pressed, as on a glove
	// built without them (JOYSTICK_BLANK).
	Controls bool
	// Period is the time between lines; 0 is 10 ms.
	Period time.Duration
	// ForceFeedback: after each line, wait for a line from the host, up to
	// a second, as the LucidGloves firmware built with force feedback does
	// (Serial.readBytesUntil and its default timeout).
	ForceFeedback bool
	// Garbage is the probability, per line, of a burst of 1-16 garbage
	// bytes inserted into it. They are never a capital letter, a digit,
	// '(', ')' or a newline: those could make another well-formed line (the
	// protocol has no checksum).
	Garbage float64
	Seed    uint64
	// SilentAt and SilentFor make the glove silent for a while, as a hung
	// firmware: no lines.
	SilentAt, SilentFor time.Duration
	// OnLine, if set, is called with every line's channel values as sent.
	OnLine func(v *[opengloves.Channels]uint16)
	// OnWrite, if set, is called just before each line is written.
	OnWrite func(time.Time)
	// OnServo, if set, is called with each host line that set the servos
	// (ForceFeedback), when it was read, and the values it set, thumb to
	// little: `gloved emulate --servo-log` and `gloved bench latency`
	// time the line from the contact to the glove by it.
	OnServo func(t time.Time, v *[5]int)
}

// OpenGlovesStats counts what an emulated OpenGloves glove did.
type OpenGlovesStats struct {
	Lines, GarbageBursts int
	// Answers counts the lines the host wrote (empty ones included);
	// Unread the bytes sent that no reader had taken when the port hung up.
	Answers, Unread int
	// Last is the last non-empty line the host wrote, newline left out.
	Last string
	// Servo is each finger's force-feedback value the host last set
	// (0 free to 1000 unable to curl), ServoLines the lines that set
	// them; Stopped counts, per finger, the lines whose curl the servo
	// held back.
	Servo, Stopped [5]int
	ServoLines     int
}

// OpenGloves emulates a glove of the LucidGloves firmware: it streams
// alpha-encoded lines of the source's motion, with its gestures (grab,
// pinch, the trigger from the index curl) and a blank joystick at mid
// scale, as AlphaEncoding.cpp and Gesture.cpp write them, or the
// controls worked (OpenGlovesOpts.Controls).
type OpenGloves struct {
	opts  OpenGlovesOpts
	start time.Time
	cyber *handmodel.Calibration
	cal   *handmodel.Calibration

	curls handmodel.Curls

	mu    sync.Mutex
	rng   *rand.Rand
	stats OpenGlovesStats
	in    []byte // host bytes not yet a whole line
}

// NewOpenGloves returns an emulated OpenGloves glove; its clock starts now.
func NewOpenGloves(o OpenGlovesOpts) (*OpenGloves, error) {
	if o.Max == 0 {
		o.Max = opengloves.MaxESP32
	}
	if o.Max != opengloves.MaxESP32 && o.Max != opengloves.MaxAVR {
		return nil, fmt.Errorf("emulator: full scale %d: want %d or %d", o.Max, opengloves.MaxESP32, opengloves.MaxAVR)
	}
	if o.Period == 0 {
		o.Period = 10 * time.Millisecond
	}
	if o.Period < time.Millisecond {
		return nil, fmt.Errorf("emulator: line period %v: want 1 ms or more", o.Period)
	}
	src := o.Source
	if o.Pose != nil {
		if src != nil {
			return nil, fmt.Errorf("emulator: an OpenGloves glove moves by its Source or its Pose, not both")
		}
		src = func(time.Duration, *[layout.Slots]uint16) {}
	}
	if err := checkFaults(src, o.Garbage); err != nil {
		return nil, err
	}
	cyber, err := handmodel.DefaultCalibration(layout.Slots)
	if err != nil {
		return nil, err
	}
	cal := o.Cal
	if cal == nil {
		if cal, err = handmodel.DefaultCalibrationFor(opengloves.Layout); err != nil {
			return nil, err
		}
	}
	if cal.Sensors != opengloves.Channels {
		return nil, fmt.Errorf("emulator: calibration %s is for %d sensors, an OpenGloves glove has %d", cal.Name, cal.Sensors, opengloves.Channels)
	}
	if !(o.Noise >= 0 && o.Noise <= MaxNoise) {
		return nil, fmt.Errorf("emulator: noise %v counts: want 0..%d", o.Noise, MaxNoise)
	}
	return &OpenGloves{opts: o, start: time.Now(), cyber: cyber, cal: cal, curls: handmodel.NewCurls(&handmodel.DefaultLimits), rng: rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15))}, nil
}

// Stats returns the counters.
func (e *OpenGloves) Stats() OpenGlovesStats {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stats
}

func (e *OpenGloves) epoch() time.Time { return e.start }

func (e *OpenGloves) lose(n int) {
	e.mu.Lock()
	e.stats.Unread += n
	e.mu.Unlock()
}

func (e *OpenGloves) silent(t time.Duration) bool {
	return e.opts.SilentFor > 0 && t >= e.opts.SilentAt && t < e.opts.SilentAt+e.opts.SilentFor
}

// ControlsTurn is how long the joystick of OpenGlovesOpts.Controls takes
// to turn round once.
const ControlsTurn = 2 * time.Second

// answerWait is how long a force-feedback firmware waits for the host's
// line: Arduino's Stream timeout.
const answerWait = time.Second

// Serve streams lines to conn and reads the host's until ctx is done or
// conn fails. It returns nil when ctx ends.
func (e *OpenGloves) Serve(ctx context.Context, conn io.ReadWriter) error {
	in, rerr := readCommands(ctx, conn)
	next := time.Now()
	timer := time.NewTimer(0)
	defer timer.Stop()
	waiting := false // a force-feedback firmware waits for the host's line
	var waitUntil time.Time
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-rerr:
			return err
		case b := <-in:
			if e.host(b) && waiting {
				waiting = false
				timer.Reset(time.Until(next))
			}
			continue
		case <-timer.C:
		}
		now := time.Now()
		if waiting && now.Before(waitUntil) {
			timer.Reset(time.Until(waitUntil))
			continue
		}
		waiting = false
		if now.Before(next) {
			timer.Reset(next.Sub(now))
			continue
		}
		next = next.Add(e.opts.Period)
		if next.Before(now) {
			next = now.Add(e.opts.Period)
		}
		if t := now.Sub(e.start); !e.silent(t) {
			line := e.line(t)
			if e.opts.OnWrite != nil {
				e.opts.OnWrite(time.Now())
			}
			if _, err := conn.Write(line); err != nil {
				return err
			}
			if e.opts.ForceFeedback {
				waiting, waitUntil = true, time.Now().Add(answerWait)
				timer.Reset(answerWait)
				continue
			}
		}
		timer.Reset(time.Until(next))
	}
}

// host takes bytes the host wrote and reports whether they ended a line.
func (e *OpenGloves) host(b []byte) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.in = append(e.in, b...)
	ended := false
	for {
		i := bytes.IndexByte(e.in, '\n')
		if i < 0 {
			break
		}
		e.stats.Answers++
		if i > 0 {
			e.stats.Last = string(e.in[:i])
		}
		if e.opts.ForceFeedback && i >= 5 {
			e.servo(e.in[:i])
		}
		e.in = e.in[i+1:]
		ended = true
	}
	if len(e.in) > 100 { // the firmware's buffer
		e.in = e.in[:0]
	}
	return ended
}

// servo takes a line of the host's as the LucidGloves firmware does
// (AlphaEncoding::decodeData, Haptics::writeServoHaptics): a line naming
// a special command ("Z") sets nothing; else each finger's value is the
// number after its key A..E, or 0 (free) when the key is missing.
func (e *OpenGloves) servo(line []byte) {
	if bytes.IndexByte(line, 'Z') >= 0 {
		return
	}
	for f := range e.stats.Servo {
		v := 0
		if k := bytes.IndexByte(line, byte('A'+f)); k >= 0 {
			for _, c := range line[k+1:] {
				if c < '0' || c > '9' || v > 1e6 {
					break
				}
				v = v*10 + int(c-'0')
			}
		}
		e.stats.Servo[f] = v
	}
	e.stats.ServoLines++
	if e.opts.OnServo != nil {
		e.opts.OnServo(time.Now(), &e.stats.Servo)
	}
}

// stop holds each finger back at its servo's limit: a finger whose
// curl (handmodel.Curls) is beyond 1 - value/1000 has its flexion
// joints scaled back to it, as the servo's arm stops the reel.
func (e *OpenGloves) stop(q *handmodel.Angles) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for f, v := range e.stats.Servo {
		if v <= 0 {
			continue
		}
		allowed := max(0, 1-float64(v)/1000)
		curl := e.curls.Curl(f, q[:])
		if curl <= allowed || !(curl > 0) {
			continue
		}
		e.stats.Stopped[f]++
		for _, j := range e.curls.Joints(f) {
			if q[j] > 0 {
				q[j] *= allowed / curl
			}
		}
	}
}

// line builds the line for time t, with its garbage.
func (e *OpenGloves) line(t time.Duration) []byte {
	var v [opengloves.Channels]uint16
	e.values(t, &v)
	line := opengloves.AppendLine(make([]byte, 0, 300), &v, e.opts.Form)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.stats.Lines++
	if e.opts.OnLine != nil {
		e.opts.OnLine(&v)
	}
	if e.opts.Garbage > 0 && e.rng.Float64() < e.opts.Garbage {
		e.stats.GarbageBursts++
		junk := make([]byte, 1+e.rng.IntN(16))
		for i := range junk {
			for junk[i] = byte(e.rng.IntN(256)); forges(junk[i]); junk[i] = byte(e.rng.IntN(256)) {
			}
		}
		at := e.rng.IntN(len(line))
		line = append(line[:at], append(junk, line[at:]...)...)
	}
	return line
}

// forges reports a byte that garbage must not hold.
func forges(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '(' || c == ')' || c == '\n'
}

// values fills v with the channels at time t: the source's joint angles
// read back into the OpenGloves calibration's readings, a finger's curl
// the mean of its per-joint readings, and the firmware's gestures.
func (e *OpenGloves) values(t time.Duration, v *[opengloves.Channels]uint16) {
	var q handmodel.Angles
	if e.opts.Pose != nil {
		q, _ = e.opts.Pose(t).Joints(opengloves.Channels)
	} else {
		var slots [layout.Slots]uint16
		e.opts.Source(t, &slots)
		var raw [devices.MaxReadings]float64
		for k := range layout.Slots {
			raw[k] = float64(slots[k])
		}
		e.cyber.AnglesOf(&raw, &handmodel.DefaultLimits, &q)
	}
	if e.opts.ForceFeedback {
		e.stop(&q)
	}
	max := float64(e.opts.Max)
	scale := max / 256 // counts to the firmware's values (Sample.Counts inverted)
	var sum, n [5]float64
	for c, ch := range opengloves.Layout.Sensors {
		if len(ch.Joints) != 1 {
			continue
		}
		j, _ := handmodel.JointNamed(ch.Joints[0].Joint)
		counts, err := e.cal.Sensor[c].Raw(q[j] / ch.Joints[0].Gain)
		if err != nil {
			continue
		}
		if e.opts.Noise > 0 {
			e.mu.Lock()
			counts += e.opts.Noise * e.rng.NormFloat64()
			e.mu.Unlock()
		}
		x := math.Round(min(max, math.Max(0, counts*scale)))
		v[c] = uint16(x)
		if c >= opengloves.Joint && c < opengloves.Joint+20 {
			f := (c - opengloves.Joint) / 4
			sum[f] += x
			n[f]++
		}
	}
	for f := range 5 {
		v[opengloves.Curl+f] = uint16(math.Round(sum[f] / n[f]))
	}
	half := uint16(e.opts.Max / 2)
	v[opengloves.JoyX], v[opengloves.JoyY] = half, half // JOYSTICK_BLANK
	flag := func(i int, on bool) {
		v[opengloves.Flag+i] = 0
		if on {
			v[opengloves.Flag+i] = 1
		}
	}
	if e.opts.Controls {
		turn := 2 * math.Pi * float64(t%ControlsTurn) / float64(ControlsTurn)
		x, y := math.Cos(turn), math.Sin(turn)
		v[opengloves.JoyX], v[opengloves.JoyY] = uint16(math.Round((x+1)/2*max)), uint16(math.Round((y+1)/2*max))
		flag(2, x > 0) // J: A
		flag(3, x < 0) // K: B
	}
	index := v[opengloves.Curl+1]
	v[opengloves.Trigger] = 0
	if index > half {
		v[opengloves.Trigger] = (index - half) * 2
	}
	fingers := (int(v[opengloves.Curl+1]) + int(v[opengloves.Curl+2]) + int(v[opengloves.Curl+3]) + int(v[opengloves.Curl+4])) / 4
	flag(1, index > half)                                       // I: the trigger gesture
	flag(4, fingers > int(half))                                // L: grab
	flag(5, (int(index)+int(v[opengloves.Curl]))/2 > int(half)) // M: pinch
}
