package daemon

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/daemon/daemontest"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/narrow"
	"github.com/gloved/gloved/selfcontact"
)

// pinchEvent is a pinch beginning or ending, at a frame.
type pinchEvent struct {
	seq    int32
	finger string
	begin  bool
}

// TestPinchOnTheWire: a simulated pinch through the daemon, self-contact
// on by default (the config has no [self]): the pinch begin and end events arrive at the frames the exact
// thumb-finger distance says. The reference poses the hand from each
// frame's own /joints message (the frames the daemon ran), measures the
// thumb's distal phalanx against each finger's two outer phalanges
// exactly, and applies the hysteresis; crossing fingers publish /self.
func TestPinchOnTheWire(t *testing.T) {
	rx, got := daemontest.Listen(t)
	runFor := 2600 * time.Millisecond
	if raceEnabled {
		runFor = 5 * time.Second
	}
	_, done, _ := startDaemon(t, runFor, "pinch.toml", hand("right", "sim", `motion = "pinch"`)+hand("left", "sim", `side = "left"`, `motion = "cross"`)+
		sections{scene: graspScene, target: rx.LocalAddr().String()}.String())
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	h, err := handmodel.New(handmodel.DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	shapes := make([]narrow.Shape, h.NumLinks())
	for l := range shapes {
		g := h.Geometry(handmodel.Link(l))
		if shapes[l].P, err = narrow.NewPolytope(g.Verts, g.Tris); err != nil {
			t.Fatal(err)
		}
	}
	o := selfcontact.DefaultOptions
	poses := make([]geom.Transform, h.NumLinks())
	var pinching [4]bool
	var want, wire []pinchEvent
	nearest := math.Inf(1)
	crossed := 0
	for _, b := range got.All() {
		var seq int32
		for _, m := range b.Messages {
			if strings.HasPrefix(m.Address, "/gloved/left/") {
				if strings.HasSuffix(m.Address, "/self") {
					crossed++
				}
				continue
			}
			switch {
			case strings.HasSuffix(m.Address, "/frame"):
				seq = m.Arguments[0].(int32)
			case strings.HasSuffix(m.Address, "/joints"):
				var q handmodel.Angles
				for j := range q {
					q[j] = float64(m.Arguments[j].(float32))
				}
				h.Pose(&q, geom.Identity(), poses)
				for l := range shapes {
					shapes[l].X = poses[l]
				}
				for f, tip := range selfcontact.FingerTips {
					d := math.Min(narrow.Distance(&shapes[handmodel.ThumbDistal], &shapes[tip], nil).Distance,
						narrow.Distance(&shapes[handmodel.ThumbDistal], &shapes[tip-1], nil).Distance)
					nearest = math.Min(nearest, math.Min(math.Abs(d-o.PinchOn), math.Abs(d-o.PinchOff)))
					name := strings.TrimSuffix(tip.String(), "3")
					switch {
					case !pinching[f] && d <= o.PinchOn:
						pinching[f] = true
						want = append(want, pinchEvent{seq, name, true})
					case pinching[f] && d >= o.PinchOff:
						pinching[f] = false
						want = append(want, pinchEvent{seq, name, false})
					}
				}
			case strings.HasSuffix(m.Address, "/pinch"):
				wire = append(wire, pinchEvent{seq, m.Arguments[0].(string), m.Arguments[1].(int32) == 1})
			}
		}
	}
	// The angles cross the wire as float32: a distance within a
	// micrometre of a threshold could fall either side of it.
	if nearest < 1e-6 {
		t.Skipf("a frame's distance is %g m from a threshold: the float32 angles cannot decide it", nearest)
	}
	if len(want) < 2 || !want[0].begin || want[1].begin {
		t.Fatalf("the simulated pinch gave the events %v: want a pinch that begins and ends", want)
	}
	if fmt.Sprint(wire) != fmt.Sprint(want) {
		t.Fatalf("pinch events on the wire (frame, finger, begin):\n%v\nthe exact distance gives\n%v", wire, want)
	}
	if crossed == 0 {
		t.Error("the left hand crossed its fingers and published no /self")
	}
	t.Logf("pinch events %v; %d self-contacts from the crossing hand", wire, crossed)
}
