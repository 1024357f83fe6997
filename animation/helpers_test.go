package animation_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/qmuntal/gltf"

	"github.com/gloved/gloved/animation"
	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/session"
)

// webxrHand is the skinned WebXR generic hand the handmodel tests use.
func webxrHand(file string) string {
	return filepath.Join("..", "handmodel", "testdata", "webxr-generic-hand", file)
}

// mustHand builds a hand or fails the test.
func mustHand(t testing.TB, p handmodel.Params) *handmodel.Hand {
	t.Helper()
	h, err := handmodel.New(p)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// skinnedHand is the hand built on the WebXR generic hand's skin.
func skinnedHand(t testing.TB, right bool, file string) *handmodel.Hand {
	t.Helper()
	return mustHand(t, handmodel.Params{Right: right, Mesh: webxrHand(file)})
}

// frameLog is what the pipeline gave one frame, kept to compare the file
// with.
type frameLog struct {
	time     time.Duration
	poses    []geom.Transform
	contacts []contact.Contact
	skin     []geom.Vec3 // the posed skin (a skinned hand)
}

// recorded is a session run through the pipeline and recorded.
type recorded struct {
	rec    *animation.Recorder
	frames []frameLog
	scene  *env.Mesh
	hand   *handmodel.Hand
}

// record runs frames of the simulated grasp over the built-in scene, the
// hand (skinned if mesh is a skin's file) held over the ball so that its
// fingers close on it from about frame 60, and records them.
func record(t testing.TB, frames int, mesh string) *recorded {
	t.Helper()
	scene, err := session.LoadScene(session.ScenePaths(session.BuiltinScene), "")
	if err != nil {
		t.Fatal(err)
	}
	spec := session.Spec{Device: session.DeviceSim, Speed: session.SpeedMax, Mesh: mesh, Wrist: session.PoseValues(env.GraspWrist())}
	if err := spec.Normalize(); err != nil {
		t.Fatal(err)
	}
	s, err := session.Open(spec, scene, session.PipelineOptions{SelfContact: true, Proximity: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p := s.Pipeline
	r := &recorded{rec: animation.NewRecorder(p.Hand(), p.Scene()), scene: p.Scene(), hand: p.Hand()}
	var posed handmodel.SkinPose
	err = s.Each(context.Background(), frames, func() error {
		f := frameLog{time: s.Sample.Time, poses: slices.Clone(p.Poses()), contacts: slices.Clone(p.Contacts())}
		if rig := p.Hand().Rig(); rig != nil {
			if err := rig.Pose(p.Angles(), p.Poses(), &posed); err != nil {
				return err
			}
			f.skin = slices.Clone(posed.Verts)
		}
		r.frames = append(r.frames, f)
		return r.rec.Add(animation.Frame{Time: s.Sample.Time, Links: p.Poses(), Angles: p.Angles(), Contacts: p.Contacts()})
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// export writes the recording as a GLB file in a temporary directory and
// reads it back; it returns the document and the file's path.
func export(t testing.TB, r *animation.Recorder) (*gltf.Document, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "session.glb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Write(f, true); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	doc, err := animation.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return doc, path
}

// node returns the index of the node named name, failing the test if
// there is none.
func node(t testing.TB, doc *gltf.Document, name string) int {
	t.Helper()
	n := animation.FindNode(doc, name)
	if n < 0 {
		t.Fatalf("the file has no node %q", name)
	}
	return n
}

// keyTime is frame k's key time as the file stores it: seconds since
// frame 0, in single precision.
func (r *recorded) keyTime(k int) float64 {
	return float64(float32((r.frames[k].time - r.frames[0].time).Seconds()))
}
