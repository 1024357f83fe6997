package emulator

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gloved/gloved/devices/cyberglove/layout"
)

// Step is one pose of a script: its name and how long it is held; 0
// holds it until the next step arrives.
type Step struct {
	Pose string
	For  time.Duration
}

// Script is a source that plays named poses (a reading per 22-sensor slot)
// one after another, with Gaussian noise: a glove held in scripted poses,
// as a calibration test wants one. Steps queue in order: one with a
// duration holds its pose that long, one without until a later step
// arrives, and the last pose holds when the steps run out. Steps may be
// queued from any goroutine (a reader of the emulator's stdin) while the
// emulator plays.
type Script struct {
	poses map[string][layout.Slots]float64
	noise float64
	// OnChange, if set, is called with the time and the name of each pose
	// as it starts to play (from the emulator's goroutine).
	OnChange func(t time.Duration, pose string)

	mu    sync.Mutex
	rng   *rand.Rand
	steps []queued // steps[0] is playing
	now   time.Duration
}

type queued struct {
	Step
	arrived, start time.Duration
}

// MaxNoise bounds a script's noise, in counts: a fifth of the 8-bit
// range.
const MaxNoise = 50

// NewScript returns a script of poses that starts by holding first;
// noise is the standard deviation, in counts, added to every reading
// before it is rounded.
func NewScript(poses map[string][layout.Slots]float64, first string, noise float64, seed uint64) (*Script, error) {
	if !(noise >= 0 && noise <= MaxNoise) {
		return nil, fmt.Errorf("emulator: noise %v counts: want 0..%d", noise, MaxNoise)
	}
	s := &Script{poses: poses, noise: noise, rng: rand.New(rand.NewPCG(seed, seed^0x5bd1e995))}
	if err := s.Play(Step{Pose: first}); err != nil {
		return nil, err
	}
	return s, nil
}

// Names lists the script's poses, sorted.
func (s *Script) Names() []string {
	names := make([]string, 0, len(s.poses))
	for n := range s.poses {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Play queues steps after those already queued.
func (s *Script) Play(steps ...Step) error {
	for _, st := range steps {
		if _, ok := s.poses[st.Pose]; !ok {
			return fmt.Errorf("emulator: no pose %q (have %s)", st.Pose, strings.Join(s.Names(), ", "))
		}
		if st.For < 0 {
			return fmt.Errorf("emulator: pose %s for %v: want a duration >= 0", st.Pose, st.For)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, st := range steps {
		s.steps = append(s.steps, queued{Step: st, arrived: s.now})
	}
	return nil
}

// A step's seconds: a millisecond to a million (some 11.6 days); the
// message that refuses one says both bounds, so that a step too long is
// not told it is too short.
const (
	MinStepSeconds = 0.001
	MaxStepSeconds = 1e6
)

// ParseStep reads a script line, "pose [seconds]"; a blank line or a
// comment (#) gives ok false.
func ParseStep(line string) (st Step, ok bool, err error) {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	f := strings.Fields(line)
	switch len(f) {
	case 0:
		return Step{}, false, nil
	case 1:
		return Step{Pose: f[0]}, true, nil
	case 2:
		secs, err := strconv.ParseFloat(f[1], 64)
		if err != nil || !(secs >= MinStepSeconds && secs <= MaxStepSeconds) {
			return Step{}, false, fmt.Errorf("emulator: %q: want seconds after the pose, %s to %s", f[1],
				strconv.FormatFloat(MinStepSeconds, 'f', -1, 64), strconv.FormatFloat(MaxStepSeconds, 'f', -1, 64))
		}
		return Step{Pose: f[0], For: time.Duration(secs * float64(time.Second))}, true, nil
	}
	return Step{}, false, fmt.Errorf("emulator: %q: want \"pose [seconds]\"", line)
}

// Load queues a script file's steps, "pose seconds" a line; only the last
// may leave out its seconds (it holds). Nothing is queued if a line is bad.
func (s *Script) Load(name string, r io.Reader) error {
	var steps []Step
	var lines []int
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		st, ok, err := ParseStep(sc.Text())
		if err != nil {
			return fmt.Errorf("%s line %d: %w", name, n, err)
		}
		if ok {
			steps, lines = append(steps, st), append(lines, n)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	for i, st := range steps {
		if st.For == 0 && i < len(steps)-1 {
			return fmt.Errorf("%s line %d: pose %s needs its seconds (only the last pose may hold)", name, lines[i], st.Pose)
		}
		if _, ok := s.poses[st.Pose]; !ok {
			return fmt.Errorf("%s line %d: %w", name, lines[i], s.Play(st))
		}
	}
	return s.Play(steps...)
}

// Source fills slots with the pose playing at t, with noise, rounded and
// kept in the 8-bit range 1..254. It is the emulator's Opts.Source.
func (s *Script) Source(t time.Duration, slots *[layout.Slots]uint16) {
	s.mu.Lock()
	defer s.mu.Unlock()
	pose := s.poses[s.play(t)]
	for k, v := range pose {
		if s.noise > 0 {
			v += s.noise * s.rng.NormFloat64()
		}
		slots[k] = uint16(math.Round(min(max(v, 1), 254)))
	}
}

// Playing returns the name of the pose playing at t, for an emulator
// that reads the pose itself (an OpenGloves glove's, through its own
// calibration) rather than the script's readings.
func (s *Script) Playing(t time.Duration) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.play(t)
}

// play moves the script on to t and returns the pose playing; s.mu is
// held.
func (s *Script) play(t time.Duration) string {
	s.now = t
	for len(s.steps) > 1 {
		cur, next := &s.steps[0], &s.steps[1]
		end := next.arrived // a step without a duration ends when the next arrives
		if cur.For > 0 {
			end = max(cur.start+cur.For, next.arrived)
		}
		if t < end {
			break
		}
		next.start = end
		s.steps = s.steps[1:]
		if s.OnChange != nil {
			s.OnChange(t, next.Pose)
		}
	}
	return s.steps[0].Pose
}
