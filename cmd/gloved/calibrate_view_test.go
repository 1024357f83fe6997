package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/gloved/gloved/calibrator/calibratortest"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/view/viewtest"
)

// pageCalibration is the calibration the page shows, as its state has it.
type pageCalibration struct {
	Phase   string
	Step    int
	Attempt int
	Pose    string
	Note    string
	Shown   int
	Poses   []struct{ Name string }
	Sensors []struct{ Name string }
}

func readCalibration(t *testing.T, b *viewtest.Browser) pageCalibration {
	t.Helper()
	var c pageCalibration
	if err := b.Eval(`gloved.calibration`, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// click presses one of the page's buttons (or rows) by id.
func click(t *testing.T, b *viewtest.Browser, id string) {
	t.Helper()
	if err := b.Eval(fmt.Sprintf(`document.getElementById(%q).click()`, id), nil); err != nil {
		t.Fatal(err)
	}
}

// holdOnPage presses Ready until pose step is taken: a hold the glove
// stopped for (a starved process on a loaded machine) is asked again.
func holdOnPage(t *testing.T, b *viewtest.Browser, step int) {
	t.Helper()
	for range 5 {
		before := readCalibration(t, b)
		click(t, b, "cal-ready")
		cond := fmt.Sprintf(`(c => c.phase === 'review' || (c.phase === 'ask' && (c.step !== %d || c.attempt > %d)))(gloved.calibration)`, step, before.Attempt)
		if err := b.WaitFor(cond, 20*time.Second); err != nil {
			t.Fatalf("pose %d: %v; the page shows %+v", step, err, readCalibration(t, b))
		}
		if c := readCalibration(t, b); c.Phase == "review" || c.Step != step {
			return
		}
	}
	t.Fatalf("pose %d: five holds in a row were not taken", step)
}

// linkSpread is how far apart (m) the page draws hands a and b's links,
// at most.
func linkSpread(t *testing.T, b *viewtest.Browser, a, c int) float64 {
	t.Helper()
	var links [2][]float64
	if err := b.Eval(fmt.Sprintf(`[gloved.latest[%d].links, gloved.latest[%d].links]`, a, c), &links); err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for i := 0; i+2 < len(links[0]) && i+2 < len(links[1]); i += 7 {
		d := math.Hypot(links[0][i]-links[1][i], math.Hypot(links[0][i+1]-links[1][i+1], links[0][i+2]-links[1][i+2]))
		worst = max(worst, d)
	}
	return worst
}

// TestCalibrateOnThePage: `gloved calibrate --view` guides the session on
// the live page, its terminal input closed, so the page alone answers.
// Each pose shows its target as a see-through hand beside the glove's;
// Ready takes each hold. The review lists every pose and sensor and shows
// a clicked pose's fitted hand over its target; one pose is held again
// from the page; Write writes a file that recovers the emulated glove's
// known calibration, and the page says so.
func TestCalibrateOnThePage(t *testing.T) {
	t.Parallel()
	const noise = 1.0
	b := chromium(t)
	dir := t.TempDir()
	known, err := calibratortest.Known(22, false, noise)
	if err != nil {
		t.Fatal(err)
	}
	knownPath, link, outPath := filepath.Join(dir, "known.toml"), filepath.Join(dir, "glove"), filepath.Join(dir, "my.toml")
	if err := os.WriteFile(knownPath, calibratortest.TOML(known), 0o644); err != nil {
		t.Fatal(err)
	}
	emu := startGloved(t, "emulate", "emulate", "--calibration", knownPath, "--noise", fmt.Sprint(noise), "--seed", "7", "--link", link)
	waitLink(t, emu, link)
	cal := startGloved(t, "calibrate", "calibrate", "--port", link, "--sensors", "22", "--hold", "0.3", "--view", "127.0.0.1:0", "-o", outPath)
	cal.in.Close() // no terminal: the page answers
	cal.expect(t, "The calibration is also on the live page at ")
	cal.expect(t, "/")
	url := regexp.MustCompile(`live page at (http://\S+/)`).FindStringSubmatch(cal.out.String())[1]
	if err := b.Navigate(url); err != nil {
		t.Fatal(err)
	}
	if err := b.WaitFor("window.gloved && gloved.calibration && gloved.calibration.phase === 'ask' && gloved.hands[1] && gloved.hands[0]", 30*time.Second); err != nil {
		t.Fatal(err)
	}
	st := readState(t, b)
	if len(st.Scene.Hands) != 2 || st.Scene.Hands[1].Name != "target" || st.HandLinks[0] != 16 {
		t.Fatalf("the calibration page draws hands %+v; want the glove's and the target", st.Scene.Hands)
	}
	playing := "flat"
	for i, p := range handmodel.CalPoses {
		if c := readCalibration(t, b); c.Phase != "ask" || c.Step != i || c.Pose != p.Name {
			t.Fatalf("the page asks %+v; want pose %d, %s", c, i, p.Name)
		}
		if i == 1 { // the glove still flat inside the fist to make
			time.Sleep(300 * time.Millisecond)
			keepScreenshot(t, b, "view-calibrate.png")
		}
		if p.Name != playing {
			emu.say(t, p.Name)
			emu.expect(t, "s: "+p.Name+"\n")
			playing = p.Name
		}
		holdOnPage(t, b, i)
	}
	if err := b.WaitFor("gloved.calibration.phase === 'review'", 20*time.Second); err != nil {
		t.Fatal(err)
	}
	c := readCalibration(t, b)
	if len(c.Poses) != len(handmodel.CalPoses) || len(c.Sensors) != 22 {
		t.Fatalf("the review lists %d poses and %d sensors; want %d and 22", len(c.Poses), len(c.Sensors), len(handmodel.CalPoses))
	}
	// The fitted hand in a pose is drawn over the pose's target: within a
	// centimetre everywhere, where the poses themselves differ by more.
	for _, i := range []int{1, 0} { // fist, then flat
		click(t, b, fmt.Sprintf("cal-pose-%d", i))
		if err := b.WaitFor(fmt.Sprintf(`gloved.calibration.shown === %d && gloved.hands[0].status === 'fitted' && gloved.hands[0].seq === gloved.hands[1].seq - 1`, i), 10*time.Second); err != nil {
			t.Fatalf("showing pose %d: %v", i, err)
		}
		if d := linkSpread(t, b, 0, 1); d > 0.01 {
			t.Errorf("pose %s: the fitted hand is drawn up to %.1f mm from its target", handmodel.CalPoses[i].Name, d*1000)
		}
	}
	keepScreenshot(t, b, "view-calibrate-review.png")
	// Hold the third pose again, from the page: ticked, then another pose
	// shown (the page redrawn), the tick kept.
	click(t, b, "cal-again-2")
	click(t, b, "cal-pose-4")
	if err := b.WaitFor(`gloved.calibration.shown === 4 && document.getElementById('cal-again-2').checked`, 10*time.Second); err != nil {
		t.Fatalf("a ticked pose after showing another: %v", err)
	}
	click(t, b, "cal-redo")
	if err := b.WaitFor("gloved.calibration.phase === 'ask' && gloved.calibration.step === 2", 10*time.Second); err != nil {
		t.Fatal(err)
	}
	emu.say(t, handmodel.CalPoses[2].Name)
	emu.expect(t, "s: "+handmodel.CalPoses[2].Name+"\n")
	holdOnPage(t, b, 2)
	if err := b.WaitFor("gloved.calibration.phase === 'review'", 20*time.Second); err != nil {
		t.Fatal(err)
	}
	click(t, b, "cal-write")
	if err := b.WaitFor("gloved.calibration.phase === 'done'", 20*time.Second); err != nil {
		t.Fatal(err)
	}
	if c := readCalibration(t, b); c.Note != "Wrote "+outPath+"." {
		t.Errorf("the page ends with %q", c.Note)
	}
	if code := cal.exit(t); code != 0 {
		t.Fatalf("calibrate exited %d: %s", code, cal.errs.String())
	}
	got, _, fewest := readWritten(t, outPath)
	calibratortest.Check(t, got, known, calibratortest.ReadingError(noise, fewest))
}
