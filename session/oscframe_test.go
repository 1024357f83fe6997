package session

import (
	"context"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/osc"
)

// TestFillFrameKeepsRotationsContinuous: the shipped recording, played
// twice (a looping replay's two passes), through FillFrame: between
// consecutive frames no link's quaternion changes hemisphere, though the
// plain matrix-to-quaternion conversion does many times; each quaternion
// is the link's rotation; each frame carries its sample's number; the
// second pass (its sample numbers start again) begins with W >= 0 for
// every link and is sent as the first was.
func TestFillFrameKeepsRotationsContinuous(t *testing.T) {
	s := graspReplay(t)
	var sent, plain [2][][]mgl64.Quat // per pass, per frame, per link
	var f osc.Frame
	for pass := range sent {
		if pass > 0 {
			if err := s.Rewind(); err != nil {
				t.Fatal(err)
			}
		}
		err := s.Each(context.Background(), 0, func() error {
			s.Pipeline.FillFrame(&f)
			if f.Sample != s.Sample.Seq {
				t.Fatalf("frame %d carries sample %d, its sample is %d", s.Frames, f.Sample, s.Sample.Seq)
			}
			var q, p []mgl64.Quat
			for l, pose := range f.Links {
				r := s.Pipeline.Poses()[l].Quat()
				if !r.ApproxEqualThreshold(pose.Q, 1e-12) && !r.ApproxEqualThreshold(pose.Q.Scale(-1), 1e-12) {
					t.Fatalf("frame %d link %d: %v sent for the rotation %v", s.Frames, l, pose.Q, r)
				}
				q, p = append(q, pose.Q), append(p, r)
			}
			sent[pass], plain[pass] = append(sent[pass], q), append(plain[pass], p)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	flips := func(frames [][]mgl64.Quat) (n int) {
		for i := 1; i < len(frames); i++ {
			for l := range frames[i] {
				if frames[i][l].Dot(frames[i-1][l]) < 0 {
					n++
				}
			}
		}
		return n
	}
	if n := flips(plain[0]); n == 0 {
		t.Fatal("the plain conversion never changes hemisphere on this recording: the test proves nothing")
	} else {
		t.Logf("the plain conversion changes hemisphere %d times in a pass of %d frames", n, len(plain[0]))
	}
	for pass, frames := range sent {
		if n := flips(frames); n != 0 {
			t.Errorf("pass %d: %d hemisphere changes between consecutive frames", pass, n)
		}
		for l, q := range frames[0] {
			if q.W < 0 {
				t.Errorf("pass %d begins with link %d's W = %v", pass, l, q.W)
			}
		}
	}
	for i := range sent[0] {
		for l := range sent[0][i] {
			if sent[1][i][l] != sent[0][i][l] {
				t.Fatalf("frame %d link %d: %v in the second pass, %v in the first", i, l, sent[1][i][l], sent[0][i][l])
			}
		}
	}
}

// TestFillFrameRestartsWithTheSampleStream: a wrist turning steadily
// about Y carries the links' quaternions, kept continuous, past W = 0
// into W < 0; a sample number that jumps forward (samples lost, a glove
// reconnected) keeps them there, and one that goes back (a new stream)
// starts them again with W >= 0.
func TestFillFrameRestartsWithTheSampleStream(t *testing.T) {
	p := graspPipeline(t, 3)
	glove, _ := sim.New(sim.Grasp, 22, 10*time.Millisecond, true)
	var s devices.Sample
	glove.Read(&s)
	var f osc.Frame
	frame := func(seq uint64, turn float64) {
		t.Helper()
		s.Seq = seq
		wrist, err := geom.FromQuat(mgl64.QuatRotate(turn, mgl64.Vec3{0, 1, 0}), geom.Vec3{Y: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Frame(&s, wrist); err != nil {
			t.Fatal(err)
		}
		p.FillFrame(&f)
	}
	negative := func() (n int) {
		for _, l := range f.Links {
			if l.Q.W < 0 {
				n++
			}
		}
		return n
	}
	turn := 0.0
	for i := range 30 {
		turn = mgl64.DegToRad(10 * float64(i))
		frame(uint64(i), turn)
	}
	if negative() == 0 {
		t.Fatal("after a 290-degree turn every link still has W >= 0: the quaternions were not kept continuous")
	}
	frame(80, turn) // 50 samples later
	if negative() == 0 {
		t.Fatal("a sample number jumping forward restarted the stream")
	}
	frame(0, turn)
	if n := negative(); n != 0 || f.Sample != 0 {
		t.Fatalf("after the sample number went back, %d links have W < 0 (sample %d)", n, f.Sample)
	}
}

// encoder is a pipeline half-way through the simulated grasp (with
// contacts and self-contact) and what FillFrame and AppendFrame write for
// it: the frame's encoding, grown once.
func encoder(tb testing.TB) func() {
	p := graspPipelineWith(tb, 5, PipelineOptions{Proximity: 0.01, SelfContact: true})
	glove, _ := sim.New(sim.Grasp, 22, 10*time.Millisecond, true)
	var s devices.Sample
	for range 150 {
		glove.Read(&s)
		if err := p.Frame(&s, env.GraspWrist()); err != nil {
			tb.Fatal(err)
		}
	}
	var f osc.Frame
	var w osc.Writer
	addr := osc.HandAddresses("/gloved", "right")
	encode := func() {
		p.FillFrame(&f)
		w.Begin(1)
		osc.AppendFrame(&w, addr, &f)
	}
	encode()
	return encode
}

// TestEncodeFrameAllocatesNothing: filling and encoding a frame, link
// quaternions kept continuous, allocates nothing once grown.
func TestEncodeFrameAllocatesNothing(t *testing.T) {
	if n := testing.AllocsPerRun(100, encoder(t)); n != 0 {
		t.Fatalf("%v allocations per frame", n)
	}
}

// BenchmarkEncodeFrame: what a frame costs between the pipeline and the
// socket: FillFrame (joints, link poses as quaternions kept in their
// hemispheres, contacts, near, self-contact) and AppendFrame (the bundle),
// for the simulated grasp half-way through, with contacts.
func BenchmarkEncodeFrame(b *testing.B) {
	encode := encoder(b)
	b.ReportAllocs()
	for b.Loop() {
		encode()
	}
}
