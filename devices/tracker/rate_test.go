package tracker

import (
	"errors"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
)

// numbered is gloved's joints message for hand "right" whose first joint
// angle carries i (exact in float32 below 2^24, within a turn below
// 411,000).
func numbered(w *osc.Writer, i int) []byte {
	w.BeginMessages()
	w.Message(osc.HandAddresses("/gloved", "right").Joints)
	for j := range handmodel.NumJoints {
		v := 0.0
		if j == 0 {
			v = float64(i) / 65536
		}
		w.Float(v)
	}
	w.End()
	return w.Packets()[0]
}

// TestAFloodingTrackerGivesAtMostMaxPoseRateAndItsNewestPose: a sender
// on loopback flooding an osc tracker hand with joints messages, as fast
// as it can for half a second, gets no more than maxPoseRate poses a
// second out of Read (with a fifth to spare), none older than the one
// before (the last pose is sent twice); the datagrams between are coalesced, and the last sample is
// the last pose sent.
func TestAFloodingTrackerGivesAtMostMaxPoseRateAndItsNewestPose(t *testing.T) {
	dec, err := newOSC("/gloved", "right", handmodel.DefaultParams, geom.Gloved)
	if err != nil {
		t.Fatal(err)
	}
	g, err := newGlove(netip.MustParseAddrPort("127.0.0.1:0"), nil, -1, dec, devices.GloveInfo{Model: OSC, Right: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	c, err := net.DialUDP("udp", nil, g.sock.conn.LocalAddr().(*net.UDPAddr))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })

	const flood = 500 * time.Millisecond
	last := make(chan int, 1)
	go func() {
		var w osc.Writer
		i := 0
		for start := time.Now(); time.Since(start) < flood; {
			i++
			send(t, c, numbered(&w, i))
		}
		// The last pose again once the flood is read, in case the
		// kernel or a full inbox dropped it.
		time.Sleep(20 * time.Millisecond)
		send(t, c, numbered(&w, i))
		last <- i
	}()

	var s devices.Sample
	samples, newest := 0, 0
	for {
		err := read(t, g, &s)
		if errors.Is(err, devices.ErrTimeout) || errors.Is(err, devices.ErrNoGlove) {
			if samples > 0 {
				break // silent for readTimeout (the pose held for good): the flood is over
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		i := int(s.Angles[0] * 65536)
		if i < newest {
			t.Fatalf("sample %d is pose %d, after pose %d", samples, i, newest)
		}
		samples, newest = samples+1, i
	}
	sent := <-last
	if limit := int(maxPoseRate * flood.Seconds() * 1.2); samples > limit {
		t.Errorf("%d samples from %d poses in %v: more than %d (%d a second)", samples, sent, flood, limit, maxPoseRate)
	}
	if newest != sent {
		t.Errorf("the last sample is pose %d, the last sent %d", newest, sent)
	}
	t.Logf("%d samples from %d poses sent in %v", samples, sent, flood)
}
