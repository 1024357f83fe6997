package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/daemon/daemontest"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
)

// trackerMaxPoseRate is docs/gloves.md's bound on a tracker hand's poses
// a second (devices/tracker's maxPoseRate).
const trackerMaxPoseRate = 200

// TestAFloodedTrackerHandKeepsToItsRateAndTheOtherHandToItsOwn: `gloved
// run` with a simulated hand (100 frames a second) and an osc tracker
// hand, a loopback sender flooding the tracker with joints messages as
// fast as it can for a second: the tracker hand's frames out stay within
// its bound (a third to spare) and the simulated hand keeps 80% of its
// frames.
func TestAFloodedTrackerHandKeepsToItsRateAndTheOtherHandToItsOwn(t *testing.T) {
	listen := freeUDP(t)
	sock, got := daemontest.Listen(t)
	cfg := rightHandConfig(t, fmt.Sprintf("device = \"sim\"\n[[hand]]\nname = \"t\"\ndevice = \"osc\"\n[hand.options]\nlisten = %q\nhold_ms = -1\n", listen), "127.0.0.1:0", sock.LocalAddr().String())
	startGloved(t, "gloved", "run", "-c", cfg)
	waitFor(t, got, "the simulated hand streaming and the tracker no-glove", func(b []*goosc.Bundle) bool {
		return daemontest.Frames(b, "right") > 0 && strings.Contains(strings.Join(daemontest.Statuses(b, "t"), " "), "no-glove")
	})

	c := dialTracker(t, "", listen)
	defer c.Close()
	var w osc.Writer
	w.BeginMessages()
	w.Message(osc.HandAddresses("/gloved", "right").Joints) // hand t's side's name
	for j := range handmodel.NumJoints {
		w.Float(0.01 * float64(j))
	}
	w.End()
	pose := w.Packets()[0]

	const flood = time.Second
	start := time.Now()
	sent := 0
	for time.Since(start) < flood {
		c.Write(pose) // a refused write is a lost datagram: the flood goes on
		sent++
	}
	end := time.Now()

	bundles, at := got.All(), got.Times()
	from, to := len(at), len(at)
	for i, a := range at {
		if a.Before(start) {
			from = i + 1
		}
		if a.Before(end) {
			to = i + 1
		}
	}
	tracker, sim := daemontest.Frames(bundles[from:to], "t"), daemontest.Frames(bundles[from:to], "right")
	t.Logf("%d datagrams in %v: %d tracker frames, %d simulated", sent, end.Sub(start), tracker, sim)
	if limit := int(trackerMaxPoseRate * flood.Seconds() * 1.3); tracker > limit {
		t.Errorf("the tracker hand sent %d frames in %v of flood, more than %d", tracker, flood, limit)
	}
	if tracker == 0 {
		t.Errorf("the flooded tracker hand sent no frame")
	}
	if least := int(100 * flood.Seconds() * 0.8); sim < least {
		t.Errorf("the simulated hand sent %d frames in %v of flood, fewer than %d", sim, flood, least)
	}
}
