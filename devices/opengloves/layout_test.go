package opengloves

import (
	"math"
	"strconv"
	"testing"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/handmodel"
)

// angles parses line (after a cut-off one) at full scale max and returns
// the joint angles the shipped calibration gives it.
func angles(t *testing.T, max int, line string) handmodel.Angles {
	t.Helper()
	p, _ := newParser(t, max)
	cal, err := handmodel.DefaultCalibrationFor(Layout)
	if err != nil {
		t.Fatal(err)
	}
	var s devices.Sample
	p.Feed([]byte("\n" + line + "\n"))
	if ev, _ := p.Next(&s); ev != devices.GotSample {
		t.Fatalf("%q is no sample", line)
	}
	var q handmodel.Angles
	if err := cal.Angles(&s, &handmodel.DefaultLimits, &q); err != nil {
		t.Fatal(err)
	}
	return q
}

func deg(r float64) float64 { return r * 180 / math.Pi }

// TestACurlSpreadsOverTheFingersJointsByTheStatedRatio: a whole-finger
// curl at full scale bends MCP, PIP and DIP 90, 100 and 70 degrees, the
// thumb's roll, MCP and IP 45, 55 and 70, at either full scale; half a
// curl half as much; per-joint curls, once sent, move their joints alone.
func TestACurlSpreadsOverTheFingersJointsByTheStatedRatio(t *testing.T) {
	near := func(got, want float64) bool { return math.Abs(deg(got)-want) < 0.2 }
	for _, max := range []int{MaxESP32, MaxAVR} {
		q := angles(t, max, fmtCurls(max))
		full := q
		for _, c := range []struct {
			j    handmodel.Joint
			want float64
		}{
			{handmodel.IndexMCP, 90}, {handmodel.IndexPIP, 100}, {handmodel.IndexDIP, 70},
			{handmodel.LittleMCP, 90}, {handmodel.LittlePIP, 100}, {handmodel.LittleDIP, 70},
			{handmodel.ThumbRoll, 45}, {handmodel.ThumbMCP, 55}, {handmodel.ThumbIP, 70},
			{handmodel.IndexAbduction, 0}, {handmodel.ThumbAbduction, 0}, {handmodel.WristPitch, 0},
		} {
			if !near(q[c.j], c.want) {
				t.Errorf("max %d, full curl: %s %.1f degrees, want %v", max, c.j, deg(q[c.j]), c.want)
			}
		}
		half := angles(t, max, fmtCurls(max/2))
		if !near(half[handmodel.MiddlePIP], deg(full[handmodel.MiddlePIP])/2) {
			t.Errorf("max %d, half a curl: middle PIP %.1f degrees", max, deg(half[handmodel.MiddlePIP]))
		}
	}
	q := angles(t, MaxESP32, "B4095(BAB)0(BAC)4095(BAD)0")
	if !near(q[handmodel.IndexMCP], 0) || !near(q[handmodel.IndexPIP], 100) || !near(q[handmodel.IndexDIP], 0) {
		t.Errorf("per-joint curls: index MCP %.1f PIP %.1f DIP %.1f", deg(q[handmodel.IndexMCP]), deg(q[handmodel.IndexPIP]), deg(q[handmodel.IndexDIP]))
	}
}

// fmtCurls is a line of the five curls at v.
func fmtCurls(v int) string {
	s := ""
	for c := range 5 {
		s += string(rune('A'+c)) + strconv.Itoa(v)
	}
	return s
}

// TestSplayDrivesAbductionAwayFromTheMiddleFinger: full splay spreads
// every finger 20 degrees away from the middle finger (the hand model
// counts ring and little ulnarly, negative), the middle finger toward the
// index and the thumb away from the palm; mid scale is straight.
func TestSplayDrivesAbductionAwayFromTheMiddleFinger(t *testing.T) {
	q := angles(t, MaxESP32, "A0(AB)4095(BB)4095(CB)4095(DB)4095(EB)4095")
	for j, want := range map[handmodel.Joint]float64{handmodel.ThumbAbduction: 20, handmodel.IndexAbduction: 20, handmodel.MiddleAbduction: 20, handmodel.RingAbduction: -20, handmodel.LittleAbduction: -20} {
		if math.Abs(deg(q[j])-want) > 0.2 {
			t.Errorf("%s: %.2f degrees, want %v", j, deg(q[j]), want)
		}
	}
	q = angles(t, MaxAVR, "A0(BB)511")
	if math.Abs(deg(q[handmodel.IndexAbduction])) > 0.2 {
		t.Errorf("mid scale: index abduction %.2f degrees", deg(q[handmodel.IndexAbduction]))
	}
}
