package calibrator

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/gloved/gloved/calibrator/calibratortest"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/view"
)

// pageUser is a wearer at the live page, in Go: it reads the page's
// messages and answers with the page's own requests.
type pageUser struct {
	t    *testing.T
	conn *websocket.Conn
	ctx  context.Context
}

func openPage(t *testing.T, srv *view.Server) *pageUser {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL(), "http")+"ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadLimit(16 << 20)
	t.Cleanup(func() { c.CloseNow() })
	return &pageUser{t: t, conn: c, ctx: ctx}
}

// next returns the next calibration state the page is sent.
func (p *pageUser) next() view.Calibration {
	p.t.Helper()
	for {
		_, data, err := p.conn.Read(p.ctx)
		if err != nil {
			p.t.Fatal(err)
		}
		var c struct {
			Type string
			view.Calibration
		}
		if err := json.Unmarshal(data, &c); err != nil {
			p.t.Fatal(err)
		}
		if c.Type == "calibration" {
			return c.Calibration
		}
	}
}

func (p *pageUser) answer(serial int, answer string, poses ...int) {
	p.t.Helper()
	q, _ := json.Marshal(map[string]any{"type": "answer", "serial": serial, "answer": answer, "poses": poses})
	if err := p.conn.Write(p.ctx, websocket.MessageText, q); err != nil {
		p.t.Fatal(err)
	}
}

// TestAPageRunsTheSession: a session on the page alone. At each pose the
// wearer takes it and answers Ready; an answer to an earlier state (a
// doubled click) is ignored, not taken for the next question; in review
// a pose out of range is not held again, a clicked pose is shown, and
// Write ends the session with the known calibration recovered.
func TestAPageRunsTheSession(t *testing.T) {
	known := knownCalibration(t, 22, false, 0)
	g := newPoseGlove(t, known, 0)
	srv, err := view.Listen("127.0.0.1:0", view.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	info := devices.GloveInfo{Sensors: 22, Right: true}
	fallback, _ := handmodel.DefaultCalibration(22)
	page, err := NewPage(srv, info, fallback)
	if err != nil {
		t.Fatal(err)
	}
	o := testOpts(g)
	o.Fallback = fallback
	type run struct {
		r   *Result
		err error
	}
	done := make(chan run, 1)
	go func() {
		r, err := Run(context.Background(), g, info, page, o)
		done <- run{r, err}
	}()
	u := openPage(t, srv)
	var c view.Calibration
	for i, pose := range handmodel.CalPoses {
		for c = u.next(); c.Phase != "ask"; c = u.next() {
		}
		if c.Step != i || c.Pose != pose.Name || c.Count != len(handmodel.CalPoses) {
			t.Fatalf("the page asks %+v; want pose %d, %s", c, i, pose.Name)
		}
		g.hold(t, pose.Name)
		if i > 0 {
			u.answer(c.Serial-1, "quit") // to the hold before: ignored
		}
		u.answer(c.Serial, "ready")
	}
	for c = u.next(); c.Phase != "review"; c = u.next() {
	}
	if len(c.Poses) != len(handmodel.CalPoses) || len(c.Sensors) != 22 || c.Shown != 0 {
		t.Fatalf("the review has %d poses, %d sensors, shows %d", len(c.Poses), len(c.Sensors), c.Shown)
	}
	u.answer(c.Serial, "redo", 99)
	u.answer(c.Serial, "show", 3)
	if c = u.next(); c.Phase != "review" || c.Shown != 3 {
		t.Fatalf("after show 3 the page has %+v", c)
	}
	u.answer(c.Serial, "write")
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatal(r.err)
		}
		calibratortest.Check(t, r.r.Cal, known, calibratortest.ReadingError(0, 1))
	case <-time.After(20 * time.Second):
		t.Fatal("Write did not end the session")
	}
	page.Done("Wrote it.", true)
	if c = u.next(); c.Phase != "done" || c.Note != "Wrote it." {
		t.Errorf("the page ends with %+v", c)
	}
}

// eofUI is a UI whose input has ended, as a terminal's at end of file.
type eofUI struct{ shown, recorded, held int }

func (e *eofUI) Ask(context.Context, Step) error { return io.EOF }
func (e *eofUI) Recording(Step)                  { e.recorded++ }
func (e *eofUI) Held(Step, *Hold, error)         { e.held++ }
func (e *eofUI) Show(*Result)                    { e.shown++ }
func (e *eofUI) Confirm(context.Context, *Result) (Decision, error) {
	return Decision{}, io.EOF
}

// TestBothLeavesTheAnswersToTheUIStillThere: with a terminal at the end of
// its input, the other UI answers every question, and both are shown
// everything; with both at an end, the session ends with io.EOF.
func TestBothLeavesTheAnswersToTheUIStillThere(t *testing.T) {
	g := newPoseGlove(t, knownCalibration(t, 18, false, 0), 0)
	gone := &eofUI{}
	u := &user{t: t, g: g}
	info := devices.GloveInfo{Sensors: 18, Right: true}
	if _, err := Run(context.Background(), g, info, Both(gone, u), testOpts(g)); err != nil {
		t.Fatal(err)
	}
	n := len(handmodel.CalPoses)
	if len(u.asks) != n || gone.recorded != n || gone.held != n || gone.shown != 1 || u.shown != 1 {
		t.Errorf("asked %d; the ended UI saw %d recordings, %d holds, %d shows: want %d, %d, %d, 1", len(u.asks), gone.recorded, gone.held, gone.shown, n, n, n)
	}
	_, err := Run(context.Background(), g, info, Both(gone, &eofUI{}), testOpts(g))
	if err != io.EOF {
		t.Errorf("both inputs ended: %v, want io.EOF", err)
	}
}
