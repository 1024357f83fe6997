package calibrator

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/handmodel"
)

// TestTerminalAsksShowsAndConfirms: the terminal says what to hold and why,
// waits for Enter, says how the hold went, shows the fitted hand beside
// the targets and the sensors' fits, and reads the user's decision.
func TestTerminalAsksShowsAndConfirms(t *testing.T) {
	r, _ := leftResult(t)
	in := strings.NewReader("\nq\nmaybe\n2, 5 2\ny\n")
	var out strings.Builder
	term := NewTerminal(in, &out)
	ctx := context.Background()
	fist := Step{Index: 1, Count: 7, Pose: &handmodel.CalPoses[1], Attempt: 2, Hold: 3 * time.Second}
	if err := term.Ask(ctx, fist); err != nil {
		t.Fatal(err)
	}
	term.Recording(fist)
	term.Held(fist, &r.Steps[1].Hold, nil)
	term.Held(fist, nil, &NotStillError{Sensor: "index_pip", Spread: 80, Still: 8})
	if err := term.Ask(ctx, fist); !errors.Is(err, ErrQuit) {
		t.Errorf("q: %v, want ErrQuit", err)
	}
	term.Show(r)
	d, err := term.Confirm(ctx, r)
	if err != nil || !slices.Equal(d.Redo, []int{1, 4}) || d.Write {
		t.Errorf("\"2, 5 2\": %+v %v, want poses 2 and 5 again", d, err)
	}
	if d, err := term.Confirm(ctx, r); err != nil || !d.Write {
		t.Errorf("y: %+v %v", d, err)
	}
	if _, err := term.Confirm(ctx, r); !errors.Is(err, io.EOF) {
		t.Errorf("end of input: %v, want io.EOF", err)
	}
	got := out.String()
	for _, want := range []string{
		"[2/7] fist, again (attempt 2)\n  Make a fist",
		"  Why: finger flexion at its largest",
		"press Enter (q quits); then keep still for 3.0 s.",
		"recording... held: ",
		"not held: the hand was not held still: index_pip moved over 80 counts (90% of its readings), more than 8. Hold the pose still and try again.",
		"[2/7] fist\n  thumb   roll    50 (-)",
		"  middle  abd      0 (0)     mcp     85 (85)    pip    100 (100)   dip     70 (70)\n",
		"(-)",
		"  palm    arch ",
		"  index_pip ",
		"FALLBACK: its reading moved 0.0 counts",
		"(reversed)",
		`"maybe": answer y, n, or pose numbers from 1 to 7.`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the terminal did not say %q:\n%s", want, got)
		}
	}
}

func TestTerminalEndsOnInterrupt(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	term := NewTerminal(pr, io.Discard)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := term.Ask(ctx, Step{Pose: &handmodel.CalPoses[0]}); !errors.Is(err, context.Canceled) {
		t.Errorf("interrupted: %v", err)
	}
}
