package main

import (
	"math"
	"net"
	"strings"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/daemon/daemontest"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/vmc"
)

// lastJoints returns the joint angles of the hand's last frame received.
func lastJoints(bundles []*goosc.Bundle, hand string) []float32 {
	var out []float32
	for _, b := range bundles {
		for _, m := range b.Messages {
			if m.Address == "/gloved/"+hand+"/joints" {
				out = out[:0]
				for _, a := range m.Arguments {
					out = append(out, a.(float32))
				}
			}
		}
	}
	return out
}

// waitFor polls until ok holds of the bundles received, for up to 10 s.
func waitFor(t *testing.T, got *daemontest.Received, what string, ok func([]*goosc.Bundle) bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !ok(got.All()); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("never %s; statuses %v", what, daemontest.Statuses(got.All(), "right"))
		}
	}
}

// TestAVMCPerformerDrivesTheHandThroughTheBinary: `gloved run` with a
// hand of device = "vmc" on loopback is no-glove until a performer sends;
// the bones gloved's own vmc profile sends for a pose, on a real UDP
// socket, make the hand stream at that pose (every joint but the
// wrist's within 1e-3 rad in its frames); once the performer falls
// silent the hand is stalled, holds the pose for hold_ms, then opens
// flat.
func TestAVMCPerformerDrivesTheHandThroughTheBinary(t *testing.T) {
	sock, got := daemontest.Listen(t)
	listen := freeUDP(t)
	cfg := rightHandConfig(t, "device = \"vmc\"\n[hand.options]\nlisten = \""+listen+"\"\nhold_ms = 1500\n", "127.0.0.1:0", sock.LocalAddr().String())
	startGloved(t, "gloved", "run", "-c", cfg)
	waitFor(t, got, "no-glove", func(b []*goosc.Bundle) bool {
		return strings.Contains(strings.Join(daemontest.Statuses(b, "right"), " "), "no-glove")
	})

	h, err := handmodel.New(handmodel.DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	want := handmodel.Angles{handmodel.IndexMCP: 1.1, handmodel.IndexPIP: 0.9, handmodel.ThumbRoll: 0.5, handmodel.RingAbduction: -0.1, handmodel.PalmArch: 0.2}
	links := make([]geom.Transform, h.NumLinks())
	h.Pose(&want, geom.Identity(), links)
	f := &osc.Frame{Joints: want[:]}
	for _, x := range links {
		f.Links = append(f.Links, osc.PoseOf(x))
	}
	performer, err := net.Dial("udp", listen)
	if err != nil {
		t.Fatal(err)
	}
	defer performer.Close()
	enc := vmc.NewHand(h, vmc.NewPerformer(time.Now(), 1), 0)
	for range 60 {
		var w osc.Writer
		enc.Frame(&w, f, time.Now())
		for _, p := range w.Packets() {
			performer.Write(p)
		}
		time.Sleep(20 * time.Millisecond)
	}
	sent := time.Now() // the last pose was sent by now
	waitFor(t, got, "streaming at the pose", func(b []*goosc.Bundle) bool {
		q := lastJoints(b, "right")
		if len(q) != int(handmodel.NumJoints) {
			return false
		}
		for j := handmodel.PalmArch; j < handmodel.NumJoints; j++ {
			if math.Abs(float64(q[j])-want[j]) > 1e-3 {
				return false
			}
		}
		return true
	})
	waitFor(t, got, "stalled", func(b []*goosc.Bundle) bool {
		s := daemontest.Statuses(b, "right")
		return s[len(s)-1] == "stalled"
	})
	if q := lastJoints(got.All(), "right"); time.Since(sent) < 1400*time.Millisecond && math.Abs(float64(q[handmodel.IndexMCP])-want[handmodel.IndexMCP]) > 1e-3 {
		t.Fatalf("stalled within the hold, the hand at %v", q)
	}
	waitFor(t, got, "open after the hold", func(b []*goosc.Bundle) bool {
		q := lastJoints(b, "right")
		return q[handmodel.IndexMCP] == 0 && q[handmodel.IndexPIP] == 0
	})
	// Frames go out as the glove's samples arrive: the open hand's frame
	// is received no sooner than hold_ms after the last pose (sent up to
	// 20 ms before sent was taken).
	if d := time.Since(sent); d < 1480*time.Millisecond {
		t.Fatalf("the hand opened %v after the last pose, within hold_ms", d)
	}
	if s := strings.Join(daemontest.Statuses(got.All(), "right"), " "); !strings.Contains(s, "no-glove streaming") {
		t.Fatalf("statuses %s", s)
	}
}
