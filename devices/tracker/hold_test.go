package tracker

import (
	"errors"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/vmc"
)

// trackerGap is a 90 Hz tracker's gap between poses.
const trackerGap = time.Second / 90

// heldGlove is a vmc tracker listening on a free loopback port with the
// given hold, and a socket sending to it. It listens at 127.0.0.1:0, so
// a test closes one before it opens the next (they would share a socket).
func heldGlove(t *testing.T, hold time.Duration) (*Glove, *net.UDPConn) {
	t.Helper()
	dec, err := newVMC(handmodel.DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	g, err := newGlove(netip.MustParseAddrPort("127.0.0.1:0"), nil, hold, dec, devices.GloveInfo{Model: VMC, Right: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	to := g.sock.conn.LocalAddr().(*net.UDPAddr)
	c, err := net.DialUDP("udp", nil, to)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return g, c
}

// send sends b to the glove; a failure is the test's error (it is
// called from the tests' sending goroutines too).
func send(t *testing.T, c *net.UDPConn, b []byte) {
	if _, err := c.Write(b); err != nil {
		t.Error(err)
	}
}

// sendPose sends one datagram of a bent index finger bone.
func sendPose(t *testing.T, c *net.UDPConn) {
	d := bone(vmc.BoneName(3, true), mgl64.Vec3{}, mgl64.QuatRotate(0.6, mgl64.Vec3{0, 0, 1}))
	send(t, c, d.buf[:d.n])
}

// sendLost sends VMC's /VMC/Ext/OK with tracking 0.
func sendLost(t *testing.T, c *net.UDPConn) {
	var w osc.Writer
	w.BeginMessages()
	w.Message(vmc.AddrOK)
	w.Int(1)
	w.Int(3)
	w.Int(0)
	w.Int(0)
	w.End()
	for _, p := range w.Packets() {
		send(t, c, p)
	}
}

// read is g.Read, failing the test if it blocks for seconds (a Read
// waits readTimeout, or the hold).
func read(t *testing.T, g *Glove, s *devices.Sample) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- g.Read(s) }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		g.Close()
		<-done
		t.Fatal("a Read blocked for 5 s")
		return nil
	}
}

// flat reports whether s is the open hand: every angle 0.
func flat(s *devices.Sample) bool {
	for _, a := range s.Angles[:s.NAngles] {
		if a != 0 {
			return false
		}
	}
	return true
}

// posed sends poses until the glove reads one, so that the tracking is
// seen, and returns when it read it.
func posed(t *testing.T, g *Glove, c *net.UDPConn) time.Time {
	t.Helper()
	var s devices.Sample
	for range 50 {
		sendPose(t, c)
		if err := read(t, g, &s); err == nil {
			if flat(&s) {
				t.Fatal("the bent finger's pose read as the flat hand")
			}
			return time.Now()
		}
	}
	t.Fatal("no pose read")
	return time.Time{}
}

// TestAHoldOfZeroNeverOpensTheHandWhilePosesFlow: with hold_ms 0 (or any
// hold shorter than the tracker's gap between poses) a tracker sending
// at 90 Hz over loopback gives its poses and never the flat hand between
// them: the tracking is lost only once it is silent for readTimeout.
func TestAHoldOfZeroNeverOpensTheHandWhilePosesFlow(t *testing.T) {
	for _, hold := range []time.Duration{0, trackerGap / 2} {
		g, c := heldGlove(t, hold)
		posed(t, g, c)
		const n = 90
		done := make(chan time.Duration, 1)
		go func() {
			var worst time.Duration
			last := time.Now()
			for range n {
				time.Sleep(trackerGap)
				sendPose(t, c)
				worst = max(worst, time.Since(last))
				last = time.Now()
			}
			done <- worst
		}()
		// Poses that come closer than minPoseGap are taken as one (the
		// newest), so the reads may give fewer than n: read until the
		// sender is done, and leave out what the read that saw it gave
		// (the silence after the last pose opens the hand, rightly).
		var s devices.Sample
		var worst time.Duration
		poses, flats, sent := 0, 0, false
		for !sent && poses+flats < n {
			err := read(t, g, &s)
			select {
			case worst = <-done:
				sent = true
				continue
			default:
			}
			if err != nil {
				continue
			}
			if flat(&s) {
				flats++
			} else {
				poses++
			}
		}
		if !sent {
			worst = <-done
		}
		if poses < n/2 {
			t.Fatalf("hold %v: %d poses read of %d sent at 90 Hz", hold, poses, n)
		}
		if flats != 0 {
			t.Fatalf("hold %v: %d flat hands among %d poses at 90 Hz (the sender's worst gap %v)", hold, flats, poses, worst)
		}
		g.Close()
	}
}

// TestASilentTrackerOpensTheHandAfterTheHold: once a tracker falls
// silent, its tracking is lost readTimeout after its last pose and the
// hand holds that pose for hold_ms from then: with 0 the first Read of
// the silence gives the flat hand, with 500 ms Reads say the tracker
// timed out and the flat hand comes no sooner than 500 ms after the
// loss, with -1 it never comes.
func TestASilentTrackerOpensTheHandAfterTheHold(t *testing.T) {
	t.Run("hold 0", func(t *testing.T) {
		g, c := heldGlove(t, 0)
		last := posed(t, g, c)
		var s devices.Sample
		if err := read(t, g, &s); err != nil {
			t.Fatalf("the first Read of the silence: %v, want the flat hand", err)
		}
		if !flat(&s) {
			t.Fatal("the first Read of the silence gave a pose, want the flat hand")
		}
		if d := time.Since(last); d < readTimeout/2 {
			t.Fatalf("the hand opened %v after the last pose, before the tracking was lost (%v)", d, readTimeout)
		}
		if err := read(t, g, &s); !errors.Is(err, devices.ErrTimeout) {
			t.Fatalf("a Read after the hand opened: %v, want %v", err, devices.ErrTimeout)
		}
	})
	t.Run("hold 500 ms", func(t *testing.T) {
		const hold = 500 * time.Millisecond
		g, c := heldGlove(t, hold)
		last := posed(t, g, c)
		var s devices.Sample
		timeouts := 0
		for {
			err := read(t, g, &s)
			if errors.Is(err, devices.ErrTimeout) {
				timeouts++
				if timeouts > 100 {
					t.Fatal("the hand never opened")
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			break
		}
		if !flat(&s) {
			t.Fatal("the silence gave a pose, want the flat hand")
		}
		if d := time.Since(last); d < hold+readTimeout/2 {
			t.Fatalf("the hand opened %v after the last pose, want the hold (%v) after the loss (%v)", d, hold, readTimeout)
		}
		if timeouts == 0 {
			t.Fatal("no Read said the tracker timed out during the hold")
		}
	})
	t.Run("hold -1", func(t *testing.T) {
		g, c := heldGlove(t, -1)
		posed(t, g, c)
		var s devices.Sample
		for range 8 {
			if err := read(t, g, &s); !errors.Is(err, devices.ErrTimeout) {
				t.Fatalf("a Read of the silence: %v, want %v (the pose held for good)", err, devices.ErrTimeout)
			}
		}
	})
}

// TestATrackerThatSaysItLostTheHandOpensItAfterTheHold: VMC's OK with
// tracking 0 loses the tracking at once: with hold 0 the next Read gives
// the flat hand, though the tracker keeps sending; with -1 the Reads,
// the tracker still sending that it lost the hand, say it timed out
// (they are not prolonged by datagrams that pose nothing) and the hand
// stays posed.
func TestATrackerThatSaysItLostTheHandOpensItAfterTheHold(t *testing.T) {
	g, c := heldGlove(t, 0)
	posed(t, g, c)
	sendLost(t, c)
	var s devices.Sample
	if err := read(t, g, &s); err != nil || !flat(&s) {
		t.Fatalf("the Read after the tracker said it lost the hand: %v, flat %v; want the flat hand", err, flat(&s))
	}

	g.Close()
	g, c = heldGlove(t, -1)
	posed(t, g, c)
	stop, stopped := make(chan struct{}), make(chan struct{})
	// The sender is gone before the socket closes: a send on the closed
	// socket would fail the test after it ended.
	defer func() { close(stop); <-stopped }()
	go func() {
		defer close(stopped)
		for {
			select {
			case <-stop:
				return
			case <-time.After(trackerGap):
				sendLost(t, c)
			}
		}
	}()
	for range 3 {
		if err := read(t, g, &s); !errors.Is(err, devices.ErrTimeout) {
			t.Fatalf("a Read while the tracker says it lost the hand: %v, want %v", err, devices.ErrTimeout)
		}
	}
}
