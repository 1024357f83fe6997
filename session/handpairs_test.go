package session

import (
	"testing"
	"time"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/osc"
)

// handshakeSession opens a simulated hand of the handshake config.
func handshakeSession(t *testing.T, left bool) *Session {
	t.Helper()
	spec := Spec{Device: DeviceSim, Motion: "handshake", Speed: SpeedMax, Wrist: []float64{0.70710678, 0, 0, -0.70710678, 0, 1.3, 0.025}}
	if left {
		spec.Side, spec.Wrist = "left", []float64{0, 0.70710678, -0.70710678, 0, 0.15, 1.3, -0.025}
	}
	if err := spec.Normalize(); err != nil {
		t.Fatal(err)
	}
	s, err := Open(spec, env.GraspScene(0), PipelineOptions{Proximity: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestHandPairsMeetEachFromItsSide: two hands stepped together find the
// same pairs of links from both sides; a pose older than the stale age is
// not met; a hand whose pipeline is rebuilt (a glove reopened) gets a new
// detector; and once grown, a frame of Publish, Run and FillFrame
// allocates nothing.
func TestHandPairsMeetEachFromItsSide(t *testing.T) {
	s := []*Session{handshakeSession(t, false), handshakeSession(t, true)}
	hp, err := NewHandPairs([]string{"right", "left"}, HandPairsOptions{Proximity: 0.01, MaxDepth: -1})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1000, 0)
	const never = time.Hour // no budget to speak of
	var frames [2]osc.Frame
	step := func() {
		t.Helper()
		for i := range s {
			if ok, err := s[i].Next(); !ok || err != nil {
				t.Fatal(ok, err)
			}
			hp.Publish(i, s[i].Pipeline, now)
		}
		for i := range s {
			if err := hp.Run(i, s[i].Pipeline, now, never); err != nil {
				t.Fatal(err)
			}
			hp.FillFrame(i, &frames[i])
		}
	}
	meeting := 0
	for range 150 {
		step()
		r, l := hp.Answer(0), hp.Answer(1)
		if len(r.Contacts) != len(l.Contacts) {
			t.Fatalf("the right hand touches the left %d times, the left the right %d", len(r.Contacts), len(l.Contacts))
		}
		for _, c := range r.Contacts {
			if c.Hand != 1 || frames[0].Hands[0].Other != "left" {
				t.Fatalf("the right hand's contact %+v names hand %d", c, c.Hand)
			}
		}
		if len(r.Contacts) > 0 {
			meeting++
		}
	}
	if meeting < 50 {
		t.Fatalf("the hands met in %d of 150 frames", meeting)
	}
	// Stale: the left hand published a second ago.
	if err := hp.Run(0, s[0].Pipeline, now.Add(time.Second), never); err != nil {
		t.Fatal(err)
	}
	if _, _, met := hp.Tested(0); met || len(hp.Answer(0).Contacts) != 0 {
		t.Fatalf("a pose a second old was met: %d contacts", len(hp.Answer(0).Contacts))
	}
	// Rebuilt: the left glove reopens with a new pipeline.
	old := hp.Detector(0, 1)
	s[1] = handshakeSession(t, true)
	step()
	if hp.Detector(0, 1) == old || hp.Detector(0, 1) == nil {
		t.Fatal("the right hand kept its detector for the left hand's old pipeline")
	}
	for range 100 { // grow every list
		step()
	}
	allocs := testing.AllocsPerRun(50, func() {
		for i := range s {
			hp.Publish(i, s[i].Pipeline, now)
		}
		for i := range s {
			hp.Run(i, s[i].Pipeline, now, never)
			hp.FillFrame(i, &frames[i])
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per frame of two hands", allocs)
	}
}
