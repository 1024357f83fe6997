package daemon

import (
	"context"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"
	"github.com/rs/zerolog"

	"github.com/gloved/gloved/daemon/daemontest"
)

// wireFrame is one frame of a hand as an app receives it.
type wireFrame struct {
	seq    int32 // /frame's sequence
	sample int32 // /sample's sequence
	quats  [][4]float32
}

// wireFrames returns hand's frames in arrival order.
func wireFrames(bundles []*goosc.Bundle, hand string) []wireFrame {
	var out []wireFrame
	for _, b := range bundles {
		for _, m := range b.Messages {
			switch m.Address {
			case "/gloved/" + hand + "/frame":
				out = append(out, wireFrame{seq: m.Arguments[0].(int32), sample: -1})
			case "/gloved/" + hand + "/sample":
				out[len(out)-1].sample = m.Arguments[0].(int32)
			case "/gloved/" + hand + "/links":
				f := &out[len(out)-1]
				for i := 0; i+7 <= len(m.Arguments); i += 7 {
					var q [4]float32
					for k := range q {
						q[k] = m.Arguments[i+3+k].(float32)
					}
					f.quats = append(f.quats, q)
				}
			}
		}
	}
	return out
}

func dot4(a, b [4]float32) float64 {
	s := 0.0
	for k := range a {
		s += float64(a[k]) * float64(b[k])
	}
	return s
}

// continuity counts, over the frames of one hand, the pairs of
// consecutive samples compared (both frames received, the sample's
// sequence one apart) and the hemisphere flips among them: a link whose
// quaternion has a negative dot product with its previous one. restarts
// are the frames whose sample sequence went back (a new stream), and
// firstOff those of them with a link's qw < 0.
func continuity(frames []wireFrame) (pairs, flips, restarts, firstOff int) {
	for i := 1; i < len(frames); i++ {
		a, b := &frames[i-1], &frames[i]
		if b.sample-a.sample <= 0 {
			restarts++
			for _, q := range b.quats {
				if q[3] < 0 {
					firstOff++
				}
			}
			continue
		}
		if b.seq-a.seq != 1 || b.sample-a.sample != 1 {
			continue // a bundle lost on the way, or a sample dropped
		}
		pairs++
		for l := range b.quats {
			if dot4(a.quats[l], b.quats[l]) < 0 {
				flips++
			}
		}
	}
	return pairs, flips, restarts, firstOff
}

// TestRotationsAreContinuousOnTheWire: the shipped recording replayed
// through the whole daemon (`gloved replay`'s wiring), looping at full
// speed, its frames captured from a real UDP socket: between consecutive
// samples no link's quaternion changes hemisphere; every pass is a new
// stream (its sample sequence starts again) whose first quaternions have
// qw >= 0.
func TestRotationsAreContinuousOnTheWire(t *testing.T) {
	rx, got := daemontest.Listen(t)
	d, done, stop := startDaemon(t, 30*time.Second, "loop.toml", loopingGrasp+builtinScene(rx.LocalAddr().String()))
	// Three passes and a half (of 201 samples), however fast the machine.
	waitFor(25*time.Second, func() bool { return daemontest.Frames(got.All(), "right") > 700 })
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	sent := d.hands[0].Stats.Frames.Load()
	waitFor(time.Second, func() bool { return uint64(daemontest.Frames(got.All(), "right")) >= sent })
	frames := wireFrames(got.All(), "right")
	pairs, flips, restarts, firstOff := continuity(frames)
	t.Logf("%d frames sent, %d received: %d consecutive pairs compared (x16 links), %d hemisphere flips, %d passes begun", sent, len(frames), pairs, flips, restarts)
	if pairs < 500 || restarts < 2 {
		t.Fatalf("%d consecutive pairs and %d restarts received: too few to judge", pairs, restarts)
	}
	if flips != 0 {
		t.Errorf("%d hemisphere flips between consecutive samples on the wire", flips)
	}
	if firstOff != 0 {
		t.Errorf("%d links began a pass with qw < 0", firstOff)
	}
}

// TestDroppedSamplesShowOnTheWire: a simulated glove at 100 samples a
// second and a frame loop slowed to 40 ms on every fifth frame, so that
// it drops the samples that pile up meanwhile (the newest is kept). On a
// real UDP socket, /frame's numbers run without a gap while /sample's
// skip: their skips add up to exactly the samples the daemon counted as
// dropped (besides those before the first frame and after the last).
func TestDroppedSamplesShowOnTheWire(t *testing.T) {
	rx, got := daemontest.Listen(t)
	cfg, err := ParseConfig("slow.toml", []byte(hand("right", "sim")+builtinScene(rx.LocalAddr().String())))
	if err != nil {
		t.Fatal(err)
	}
	d, err := New(cfg, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	h := d.hands[0]
	frames := 0
	d.onFrame = func(string, [][]byte) {
		if frames++; frames%5 == 0 {
			time.Sleep(40 * time.Millisecond)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	waitFor(15*time.Second, func() bool { return h.Stats.Dropped.Load() >= 30 && h.Stats.Frames.Load() >= 100 })
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	sent := h.Stats.Frames.Load()
	waitFor(2*time.Second, func() bool { return uint64(daemontest.Frames(got.All(), "right")) >= sent })
	wire := wireFrames(got.All(), "right")
	if uint64(len(wire)) != sent {
		t.Fatalf("%d frames sent, %d received on loopback", sent, len(wire))
	}
	gaps := int64(wire[0].sample) // samples dropped before the first frame
	for i := 1; i < len(wire); i++ {
		if step := wire[i].seq - wire[i-1].seq; step != 1 {
			t.Fatalf("frame %d follows frame %d", wire[i].seq, wire[i-1].seq)
		}
		step := wire[i].sample - wire[i-1].sample
		if step < 1 {
			t.Fatalf("sample %d follows sample %d", wire[i].sample, wire[i-1].sample)
		}
		gaps += int64(step - 1)
	}
	h.mu.Lock()
	latest, fresh := h.latest.Seq, h.fresh
	h.mu.Unlock()
	after := int64(latest) - int64(wire[len(wire)-1].sample) // delivered after the last frame
	if fresh {
		after-- // the newest, neither processed nor dropped
	}
	dropped := h.Stats.Dropped.Load()
	t.Logf("%d frames, %d samples skipped on the wire, %d before the first frame and after the last; %d dropped", len(wire), gaps-int64(wire[0].sample), int64(wire[0].sample)+after, dropped)
	if gaps-int64(wire[0].sample) < 20 {
		t.Fatalf("only %d samples skipped on the wire: the slow frames dropped too few to judge", gaps)
	}
	if uint64(gaps+after) != dropped {
		t.Fatalf("the wire shows %d samples missing, the daemon dropped %d", gaps+after, dropped)
	}
}
