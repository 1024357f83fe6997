package view

import (
	"testing"
	"time"
)

// TestACalibrationIsShownAndAnswered: a calibration set reaches every
// page after the scene, pages that connect later too, and their answers
// come back in order; with none shown, or an answer no page can give,
// that page's connection ends and nothing reaches Answers.
func TestACalibrationIsShownAndAnswered(t *testing.T) {
	s := listen(t, Options{})
	if err := s.SetScene(testScene()); err != nil {
		t.Fatal(err)
	}
	early := dial(t, s)
	if typ := early.recv(nil); typ != "scene" {
		t.Fatalf("first message %q", typ)
	}
	early.send(`{"type":"answer","serial":1,"answer":"ready"}`) // nothing asked yet
	if _, _, err := early.conn.Read(early.ctx); err == nil {
		t.Error("an answer with no calibration shown kept the page connected")
	}
	if err := s.SetCalibration(&Calibration{Serial: 4, Phase: "ask", Pose: "fist"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*client{dial(t, s), dial(t, s)} {
		if typ := c.recv(nil); typ != "scene" {
			t.Fatalf("first message %q", typ)
		}
		var got Calibration
		if typ := c.recv(&got); typ != "calibration" || got.Serial != 4 || got.Pose != "fist" {
			t.Fatalf("then %q %+v", typ, got)
		}
		c.send(`{"type":"answer","serial":4,"answer":"redo","poses":[1,4]}`)
		select {
		case a := <-s.Answers():
			if a.Serial != 4 || a.Answer != "redo" || len(a.Poses) != 2 || a.Poses[1] != 4 {
				t.Errorf("answer %+v", a)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the answer never came")
		}
		c.send(`{"type":"answer","serial":4,"answer":"format the disk"}`)
		if _, _, err := c.conn.Read(c.ctx); err == nil {
			t.Error("an answer no page can give kept the page connected")
		}
	}
	select {
	case a := <-s.Answers():
		t.Errorf("an answer that should have been refused arrived: %+v", a)
	default:
	}
}

// TestAConnectedPageGetsEachNewCalibrationState: a page already showing a
// calibration is sent every later state as it is set, without asking,
// each with its own serial.
func TestAConnectedPageGetsEachNewCalibrationState(t *testing.T) {
	s := listen(t, Options{})
	if err := s.SetScene(testScene()); err != nil {
		t.Fatal(err)
	}
	if err := s.SetCalibration(&Calibration{Serial: 1, Phase: "ask", Pose: "flat"}); err != nil {
		t.Fatal(err)
	}
	c := dial(t, s)
	if typ := c.recv(nil); typ != "scene" {
		t.Fatalf("first message %q", typ)
	}
	for _, want := range []Calibration{{Serial: 1, Phase: "ask", Pose: "flat"}, {Serial: 2, Phase: "recording", Pose: "flat"}, {Serial: 3, Phase: "ask", Pose: "fist"}} {
		if want.Serial > 1 {
			if err := s.SetCalibration(&want); err != nil {
				t.Fatal(err)
			}
		}
		var got Calibration
		if typ := c.recv(&got); typ != "calibration" || got.Serial != want.Serial || got.Phase != want.Phase || got.Pose != want.Pose {
			t.Fatalf("got %q %+v, want the calibration %+v", typ, got, want)
		}
	}
}
