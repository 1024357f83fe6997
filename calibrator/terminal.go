package calibrator

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gloved/gloved/handmodel"
)

// Terminal is the UI of a terminal: instructions and tables written to
// out, the user's answers read from in one line each (Enter to go on).
type Terminal struct {
	out   io.Writer
	lines chan string
	err   error // why in ended, once lines is closed
}

var _ UI = (*Terminal)(nil)

// NewTerminal returns a terminal UI; it reads in, a line at a time, from
// a goroutine of its own until in ends.
func NewTerminal(in io.Reader, out io.Writer) *Terminal {
	t := &Terminal{out: out, lines: make(chan string)}
	go func() {
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			t.lines <- strings.TrimSpace(sc.Text())
		}
		t.err = sc.Err()
		close(t.lines)
	}()
	return t
}

// readLine waits for the user's next line: io.EOF when in ended.
func (t *Terminal) readLine(ctx context.Context) (string, error) {
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case l, ok := <-t.lines:
		if !ok {
			if t.err != nil {
				return "", fmt.Errorf("calibrator: reading the terminal: %w", t.err)
			}
			return "", io.EOF
		}
		return l, nil
	}
}

// Ask prints the pose's instruction and reason and waits for Enter; q quits.
func (t *Terminal) Ask(ctx context.Context, s Step) error {
	again := ""
	if s.Attempt > 1 {
		again = fmt.Sprintf(", again (attempt %d)", s.Attempt)
	}
	fmt.Fprintf(t.out, "\n[%d/%d] %s%s\n  %s\n  Why: %s.\n  Hold the pose and press Enter (q quits); then keep still for %.1f s.\n",
		s.Index+1, s.Count, s.Pose.Name, again, s.Pose.Do, s.Pose.Why, s.Hold.Seconds())
	l, err := t.readLine(ctx)
	if err != nil {
		return err
	}
	if l == "q" || l == "quit" {
		return ErrQuit
	}
	return nil
}

// Recording says the hold has begun.
func (t *Terminal) Recording(Step) { fmt.Fprint(t.out, "  recording... ") }

// Held says how the hold went.
func (t *Terminal) Held(_ Step, h *Hold, err error) {
	var stopped *StoppedError
	switch {
	case err == nil:
		fmt.Fprintf(t.out, "held: %d samples, every sensor within %.0f counts.\n", h.Samples, maxSpread(h))
	case errors.As(err, &stopped):
		fmt.Fprintf(t.out, "not held: %s. Check the glove and try again.\n", strings.TrimPrefix(err.Error(), "calibrator: "))
	default:
		fmt.Fprintf(t.out, "not held: %s. Hold the pose still and try again.\n", strings.TrimPrefix(err.Error(), "calibrator: "))
	}
}

func maxSpread(h *Hold) float64 {
	m := 0.0
	for _, v := range h.Spread {
		m = max(m, v)
	}
	return m
}

// Show prints the fitted hand in each pose, then each sensor's fit.
func (t *Terminal) Show(r *Result) {
	fmt.Fprintf(t.out, "\nThe fitted hand in each pose, degrees: fitted (target), - where the pose does not hold the joint.\n")
	for i := range r.Steps {
		fmt.Fprintf(t.out, "[%d/%d] %s\n", i+1, len(r.Steps), r.Steps[i].Pose.Name)
		writeHand(t.out, &r.Steps[i])
	}
	fmt.Fprintf(t.out, "\nEach sensor: offset (counts), gain (rad/count), residuals over the poses that hold it (degrees).\n")
	fmt.Fprintf(t.out, "  %-24s %8s %10s %6s %6s  %s\n", "sensor", "offset", "gain", "rms", "worst", "in")
	for i := range r.Fits {
		f, c := &r.Fits[i], &r.Cal.Sensor[i]
		worst, in := 0.0, "-"
		if f.Worst >= 0 {
			worst, in = degrees(f.Points[f.Worst].Residual), f.Points[f.Worst].Pose
		}
		fmt.Fprintf(t.out, "  %-24s %8.2f %10.6f %6.1f %6.1f  %s", c.Name, c.Offset, c.Gain, degrees(f.RMS), worst, in)
		if f.Reversed(&r.Fallback.Sensor[i]) {
			fmt.Fprint(t.out, "  (reversed)")
		}
		if len(f.Saturated) > 0 {
			fmt.Fprintf(t.out, "  (at the end of its range in %s: left out)", strings.Join(f.Saturated, ", "))
		}
		if f.Fallback != "" {
			fmt.Fprintf(t.out, "  FALLBACK: %s", f.Fallback)
		}
		fmt.Fprintln(t.out)
	}
}

// handRows lays the joints out a finger a row.
var handRows = []struct {
	name   string
	labels [4]string
	joints [4]handmodel.Joint
}{
	{"thumb", [4]string{"roll", "abd", "mcp", "ip"}, [4]handmodel.Joint{handmodel.ThumbRoll, handmodel.ThumbAbduction, handmodel.ThumbMCP, handmodel.ThumbIP}},
	{"index", [4]string{"abd", "mcp", "pip", "dip"}, [4]handmodel.Joint{handmodel.IndexAbduction, handmodel.IndexMCP, handmodel.IndexPIP, handmodel.IndexDIP}},
	{"middle", [4]string{"abd", "mcp", "pip", "dip"}, [4]handmodel.Joint{handmodel.MiddleAbduction, handmodel.MiddleMCP, handmodel.MiddlePIP, handmodel.MiddleDIP}},
	{"ring", [4]string{"abd", "mcp", "pip", "dip"}, [4]handmodel.Joint{handmodel.RingAbduction, handmodel.RingMCP, handmodel.RingPIP, handmodel.RingDIP}},
	{"little", [4]string{"abd", "mcp", "pip", "dip"}, [4]handmodel.Joint{handmodel.LittleAbduction, handmodel.LittleMCP, handmodel.LittlePIP, handmodel.LittleDIP}},
	{"palm", [4]string{"arch", "pitch", "yaw", ""}, [4]handmodel.Joint{handmodel.PalmArch, handmodel.WristPitch, handmodel.WristYaw, -1}},
}

// writeHand prints a step's fitted joint angles beside its targets.
func writeHand(w io.Writer, st *StepResult) {
	for _, row := range handRows {
		line := fmt.Sprintf("  %-7s", row.name)
		for c, j := range row.joints {
			if j < 0 {
				continue
			}
			target := "-"
			if st.Pinned[j] {
				target = wholeDegrees(st.Target[j])
			}
			line += fmt.Sprintf(" %-5s%5s %-7s", row.labels[c], wholeDegrees(st.Fitted[j]), "("+target+")")
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
}

// wholeDegrees writes an angle in whole degrees, never "-0".
func wholeDegrees(rad float64) string {
	return strconv.Itoa(int(math.Round(degrees(rad))))
}

// Confirm asks whether to write the calibration: y writes it, n quits
// without writing, pose numbers hold those poses again.
func (t *Terminal) Confirm(ctx context.Context, r *Result) (Decision, error) {
	for {
		fmt.Fprintf(t.out, "\nWrite this calibration? y: write it; n: quit without writing; pose numbers (e.g. 2 5): hold those again.\n")
		l, err := t.readLine(ctx)
		if err != nil {
			return Decision{}, err
		}
		switch strings.ToLower(l) {
		case "y", "yes":
			return Decision{Write: true}, nil
		case "n", "no", "q", "quit":
			return Decision{}, nil
		}
		if redo, ok := poseNumbers(l, len(r.Steps)); ok {
			return Decision{Redo: redo}, nil
		}
		fmt.Fprintf(t.out, "  %q: answer y, n, or pose numbers from 1 to %d.\n", l, len(r.Steps))
	}
}

// poseNumbers reads "2 5" or "2,5" as pose indices 1 and 4.
func poseNumbers(l string, n int) ([]int, bool) {
	f := strings.FieldsFunc(l, func(r rune) bool { return r == ' ' || r == ',' })
	if len(f) == 0 {
		return nil, false
	}
	var redo []int
	for _, s := range f {
		k, err := strconv.Atoi(s)
		if err != nil || k < 1 || k > n {
			return nil, false
		}
		redo = append(redo, k-1)
	}
	slices.Sort(redo)
	return slices.Compact(redo), true
}
