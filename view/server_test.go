package view

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/osc"
)

// testScene is two objects and one hand of three links.
func testScene() Scene {
	box := Mesh{Positions: []float32{0, 0, 0, 1, 0, 0, 0, 1, 0}, Indices: []int32{0, 1, 2}}
	h := Hand{Name: "right", Right: true}
	for _, n := range []string{"palm", "index1", "index2"} {
		m := box
		m.Name = n
		h.Links = append(h.Links, m)
	}
	a, b := box, box
	a.Name, b.Name = "table", "ball"
	return Scene{Objects: []Mesh{a, b}, Hands: []Hand{h}, BudgetMS: 5, Proximity: 0.01, Live: true, Title: "test"}
}

// testFrame is frame seq of testScene's hand, with seq%3 contacts.
func testFrame(seq int32) *osc.Frame {
	f := &osc.Frame{Seq: seq, Links: make([]osc.Pose, 3)}
	for l := range f.Links {
		f.Links[l] = osc.Pose{P: mgl64.Vec3{float64(l), float64(seq) / 100, 0}, Q: mgl64.QuatIdent()}
	}
	for k := range int(seq % 3) {
		f.Contacts = append(f.Contacts, osc.Contact{Link: "index2", Object: "ball", Depth: 0.001 * float64(k+1), Point: mgl64.Vec3{0, 1, 0}, Normal: mgl64.Vec3{0, 1, 0}})
	}
	return f
}

// client is a page's side of the stream, in Go.
type client struct {
	t    *testing.T
	conn *websocket.Conn
	ctx  context.Context
}

func dial(t *testing.T, s *Server) *client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.URL(), "http")+"ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadLimit(16 << 20)
	t.Cleanup(func() { c.CloseNow() })
	return &client{t: t, conn: c, ctx: ctx}
}

func (c *client) send(q string) {
	c.t.Helper()
	if err := c.conn.Write(c.ctx, websocket.MessageText, []byte(q)); err != nil {
		c.t.Fatal(err)
	}
}

// recv reads one message into v and returns its type.
func (c *client) recv(v any) string {
	c.t.Helper()
	_, data, err := c.conn.Read(c.ctx)
	if err != nil {
		c.t.Fatal(err)
	}
	var head struct{ Type string }
	if err := json.Unmarshal(data, &head); err != nil {
		c.t.Fatal(err)
	}
	if v != nil {
		if err := json.Unmarshal(data, v); err != nil {
			c.t.Fatal(err)
		}
	}
	return head.Type
}

func listen(t *testing.T, o Options) *Server {
	t.Helper()
	s, err := Listen("127.0.0.1:0", o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestABrowserGetsTheSceneThenTheNewestFrame(t *testing.T) {
	s := listen(t, Options{})
	if err := s.SetScene(testScene()); err != nil {
		t.Fatal(err)
	}
	c := dial(t, s)
	var sc Scene
	if typ := c.recv(&sc); typ != "scene" || len(sc.Objects) != 2 || len(sc.Hands) != 1 || len(sc.Hands[0].Links) != 3 {
		t.Fatalf("first message %q: %d objects, %+v; want the scene of 2 objects and a hand of 3 links", typ, len(sc.Objects), sc.Hands)
	}
	for seq := range int32(5) {
		s.Publish(0, testFrame(seq), &Info{Status: "streaming", T: time.Duration(seq) * 10 * time.Millisecond, FrameMS: float64(seq)})
	}
	c.send(`{"type":"next"}`)
	var m frameMsg
	if typ := c.recv(&m); typ != "frame" || len(m.Hands) != 1 {
		t.Fatalf("got %q with %d hands, want a frame of one hand", typ, len(m.Hands))
	}
	h := m.Hands[0]
	want := testFrame(4)
	if h.Seq != 4 || h.Status != "streaming" || len(h.Links) != 21 || len(h.Contacts) != len(want.Contacts) || !h.Live {
		t.Fatalf("got seq %d status %q %d link floats %d contacts live %v; want the newest frame 4, streaming, 21, %d, live", h.Seq, h.Status, len(h.Links), len(h.Contacts), h.Live, len(want.Contacts))
	}
	if h.Skipped != 4 || m.Skipped != 4 {
		t.Errorf("skipped %d (message %d), want the 4 frames before the newest", h.Skipped, m.Skipped)
	}
	if len(h.Times) != 5 || h.Times[0] != 0 || h.Times[4] != 4 {
		t.Errorf("frame times %v, want all five frames' 0..4", h.Times)
	}
	// Nothing newer: the next request waits for the next frame.
	c.send(`{"type":"next"}`)
	go func() {
		time.Sleep(50 * time.Millisecond)
		s.Publish(0, testFrame(5), &Info{Status: "streaming", FrameMS: 5})
	}()
	if c.recv(&m); m.Hands[0].Seq != 5 || m.Hands[0].Skipped != 4 || len(m.Hands[0].Times) != 1 {
		t.Errorf("got seq %d skipped %d times %v; want frame 5 alone, nothing more skipped", m.Hands[0].Seq, m.Hands[0].Skipped, m.Hands[0].Times)
	}
	if st := s.Stats(); st.Sent != 2 || st.Skipped != 4 || st.Browsers != 1 {
		t.Errorf("stats %+v, want 2 sent, 4 skipped, 1 browser", st)
	}
}

// TestEventsOfSkippedFramesStillArrive: a touch, pinch or fist happens in
// one frame; a browser that skipped that frame still hears of it.
func TestEventsOfSkippedFramesStillArrive(t *testing.T) {
	s := listen(t, Options{})
	s.SetScene(testScene())
	c := dial(t, s)
	c.recv(nil)
	f := testFrame(0)
	f.Touches = []osc.Touch{{Link: "index2", Object: "ball", Begin: true}}
	f.Pinches = []osc.Pinch{{Finger: "index", Begin: true}}
	s.Publish(0, f, &Info{})
	s.Publish(0, testFrame(1), &Info{})
	f = testFrame(2)
	f.Fists = []osc.Fist{{Begin: true}}
	s.Publish(0, f, &Info{})
	c.send(`{"type":"next"}`)
	var m frameMsg
	c.recv(&m)
	h := m.Hands[0]
	if len(h.Touches) != 1 || h.Touches[0] != (eventJS{Link: "index2", Object: "ball", Begin: true}) || len(h.Pinches) != 1 || len(h.Fists) != 1 {
		t.Fatalf("touches %v pinches %v fists %v; want the touch and pinch of frame 0 and the fist of frame 2", h.Touches, h.Pinches, h.Fists)
	}
	s.Publish(0, testFrame(3), &Info{})
	c.send(`{"type":"next"}`)
	c.recv(&m)
	if h := m.Hands[0]; len(h.Touches)+len(h.Pinches)+len(h.Fists) != 0 {
		t.Errorf("events %v %v %v sent again", h.Touches, h.Pinches, h.Fists)
	}
}

// TestAStuckBrowserNeverHoldsUpTheFrameLoop: a browser that asks and then
// stops reading fills its connection; Publish goes on regardless, the
// browser is disconnected after WriteTimeout, and another browser is
// served throughout.
func TestAStuckBrowserNeverHoldsUpTheFrameLoop(t *testing.T) {
	s := listen(t, Options{WriteTimeout: 3 * time.Second})
	big := testScene()
	big.Objects[0].Positions = make([]float32, 3<<20) // a 12 MB scene message: more than the socket buffers hold
	s.SetScene(big)
	stuck := dial(t, s) // never reads
	_ = stuck
	good := dial(t, s)
	good.recv(nil)
	deadline := time.Now().Add(30 * time.Second)
	var seq int32
	for s.Stats().Dropped == 0 && time.Now().Before(deadline) {
		s.Publish(0, testFrame(seq), &Info{})
		seq++
		time.Sleep(time.Millisecond)
	}
	if st := s.Stats(); st.Dropped != 1 || st.Browsers != 1 {
		t.Fatalf("stats %+v after %d frames: want the stuck browser dropped and the reading one connected", st, seq)
	}
	good.send(`{"type":"next"}`)
	var m frameMsg
	if good.recv(&m); m.Hands[0].Seq != seq-1 {
		t.Errorf("the reading browser got frame %d, want the newest %d", m.Hands[0].Seq, seq-1)
	}
}

func TestPublishAllocatesNothing(t *testing.T) {
	s := listen(t, Options{})
	s.SetScene(testScene())
	c := dial(t, s)
	c.recv(nil)
	f := testFrame(2)
	f.Touches = []osc.Touch{{Link: "index2", Object: "ball", Begin: true}}
	info := &Info{Status: "streaming"}
	s.Publish(0, f, info)
	if n := testing.AllocsPerRun(1000, func() { s.Publish(0, f, info) }); n != 0 {
		t.Errorf("Publish allocates %v times per frame, want 0", n)
	}
}

// TestNoNumberIsNotANumber: a NaN or infinity in a frame never reaches a
// browser (JSON has none, and the page would draw garbage).
func TestNoNumberIsNotANumber(t *testing.T) {
	s := listen(t, Options{})
	s.SetScene(testScene())
	c := dial(t, s)
	c.recv(nil)
	f := testFrame(2)
	f.Links[1].P[0] = math.NaN()
	f.Contacts[0].Depth = math.Inf(1)
	f.Near = []osc.Near{{Link: "palm", Object: "table", Distance: math.NaN()}}
	s.Publish(0, f, &Info{})
	c.send(`{"type":"next"}`)
	var m frameMsg
	c.recv(&m)
	h := m.Hands[0]
	if len(h.Contacts) != 1 || len(h.Near) != 0 || h.Links[7] != 0 || h.Links[13] != 1 {
		t.Errorf("contacts %v near %v link 1 %v; want the finite contact only, no near, link 1 at the identity", h.Contacts, h.Near, h.Links[7:14])
	}
}

func TestTimelineAnswersTheFrameAtATime(t *testing.T) {
	s := listen(t, Options{})
	tl := NewTimeline(1)
	for seq := range int32(10) {
		tl.Add(0, testFrame(seq), Info{T: time.Duration(seq) * 100 * time.Millisecond})
	}
	tl.Add(0, testFrame(99), Info{T: 900 * time.Millisecond}) // the same time: replaces frame 9
	s.SetTimeline(tl)
	sc := testScene()
	sc.Live = false
	s.SetScene(sc)
	c := dial(t, s)
	var got struct {
		Duration float64
		Live     bool
	}
	c.recv(&got)
	if got.Duration != 0.9 || got.Live || tl.Frames(0) != 10 {
		t.Fatalf("scene says duration %v live %v, timeline holds %d frames; want 0.9 s, not live, 10", got.Duration, got.Live, tl.Frames(0))
	}
	for _, tc := range []struct {
		t    float64
		want int32
	}{{-1, 0}, {0, 0}, {0.25, 2}, {0.3, 3}, {0.85, 8}, {0.9, 99}, {5, 99}} {
		c.send(fmt.Sprintf(`{"type":"at","t":%v}`, tc.t))
		var m frameMsg
		c.recv(&m)
		if len(m.Hands) != 1 || m.Hands[0].Seq != tc.want || m.Hands[0].Live {
			t.Errorf("at %v s: got %+v, want timeline frame %d", tc.t, m.Hands, tc.want)
		}
	}
}

// TestAMalformedRequestEndsOnlyItsBrowser: a page sending what is not a
// request is disconnected; the server and other pages go on.
func TestAMalformedRequestEndsOnlyItsBrowser(t *testing.T) {
	s := listen(t, Options{})
	s.SetScene(testScene())
	for _, bad := range []string{`{"type":"delete"}`, `not json`, strings.Repeat("x", maxRequest+1)} {
		c := dial(t, s)
		c.recv(nil)
		c.conn.Write(c.ctx, websocket.MessageText, []byte(bad))
		if _, _, err := c.conn.Read(c.ctx); websocket.CloseStatus(err) == -1 {
			t.Errorf("after %.20q the connection stayed open (%v)", bad, err)
		}
	}
	good := dial(t, s)
	good.recv(nil)
	s.Publish(0, testFrame(1), &Info{})
	good.send(`{"type":"next"}`)
	if typ := good.recv(nil); typ != "frame" {
		t.Errorf("a good browser got %q, want a frame", typ)
	}
}

// TestOnlyAllowedSourcesAndNamesAreServed: loopback and osc.allow may open
// the page; a server on loopback answers only to its address or
// localhost (no DNS rebinding); another site's page may not open the
// stream.
func TestOnlyAllowedSourcesAndNamesAreServed(t *testing.T) {
	s := listen(t, Options{Allow: []netip.Prefix{netip.MustParsePrefix("192.0.2.0/28")}})
	s.SetScene(testScene())
	h := s.Handler()
	port := s.Addr().(interface{ String() string }).String()
	port = port[strings.LastIndex(port, ":"):]
	for _, tc := range []struct {
		remote, host string
		want         int
	}{
		{"127.0.0.1:5000", "127.0.0.1" + port, 200},
		{"[::1]:5000", "localhost" + port, 200},
		{"192.0.2.5:5000", "127.0.0.1" + port, 200},
		{"192.0.2.99:5000", "127.0.0.1" + port, 403},
		{"127.0.0.1:5000", "attacker.example" + port, 403},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr, r.Host = tc.remote, tc.host
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tc.want {
			t.Errorf("from %s as %s: %d, want %d", tc.remote, tc.host, w.Code, tc.want)
		}
	}
	if st := s.Stats(); st.Refused != 2 {
		t.Errorf("refused %d, want 2", st.Refused)
	}
	hdr := http.Header{"Origin": {"http://attacker.example"}}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.URL(), "http")+"ws", &websocket.DialOptions{HTTPHeader: hdr}); err == nil {
		c.CloseNow()
		t.Error("a page of another origin opened the stream")
	}
}

// TestViewersBeyondTheCapAreTurnedAway: with MaxViewers watching, one
// more browser is answered 503 and counted, and logged at most once a
// second; once one leaves, another is let in.
func TestViewersBeyondTheCapAreTurnedAway(t *testing.T) {
	var mu sync.Mutex
	var logged []string
	s := listen(t, Options{MaxViewers: 2, Log: func(msg string, kv ...any) { mu.Lock(); logged = append(logged, msg); mu.Unlock() }})
	s.SetScene(testScene())
	first, second := dial(t, s), dial(t, s)
	first.recv(nil)
	second.recv(nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	began := time.Now()
	for range 3 {
		c, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.URL(), "http")+"ws", nil)
		if err == nil {
			c.CloseNow()
			t.Fatal("a third browser was let in")
		}
		if resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("a third browser: %v, want 503", err)
		}
	}
	mu.Lock()
	lines := len(logged)
	mu.Unlock()
	// One line a second at most, however slow the machine made the dials.
	if st, most := s.Stats(), 1+int(time.Since(began)/time.Second); st.TurnedAway != 3 || st.Browsers != 2 || lines < 1 || lines > most {
		t.Errorf("stats %+v, %d lines logged: want 3 turned away, 2 watching, 1 to %d lines", st, lines, most)
	}
	first.conn.Close(websocket.StatusNormalClosure, "")
	for deadline := time.Now().Add(10 * time.Second); s.Stats().Browsers != 1; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the browser that left is still counted")
		}
	}
	third := dial(t, s)
	if typ := third.recv(nil); typ != "scene" {
		t.Errorf("the browser let in got %q, want the scene", typ)
	}
}

func TestAPortInUseIsSaidSo(t *testing.T) {
	s := listen(t, Options{})
	_, err := Listen(s.Addr().String(), Options{})
	if err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("got %v, want the port in use", err)
	}
}

// BenchmarkPublish is the frame loop's cost of the page: one hand's frame
// (16 links, 6 contacts, 3 near) copied into its slot with a browser
// connected.
func BenchmarkPublish(b *testing.B) {
	s, err := Listen("127.0.0.1:0", Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	s.SetScene(testScene())
	f := testFrame(0)
	f.Links = make([]osc.Pose, 16)
	for k := range 6 {
		f.Contacts = append(f.Contacts, osc.Contact{Link: "index3", Object: "ball", Depth: 0.001 * float64(k)})
	}
	f.Near = make([]osc.Near, 3)
	info := &Info{Status: "streaming"}
	b.ReportAllocs()
	for b.Loop() {
		s.Publish(0, f, info)
	}
}

// TestABrowserIsToldWhyThePageWentAway: closing the server (gloved
// stopping, or a reload replacing the page's server) closes each
// browser's connection as going away, with a reason true of both: it
// said "gloved is stopping" at a reload too.
func TestABrowserIsToldWhyThePageWentAway(t *testing.T) {
	s := listen(t, Options{})
	s.SetScene(testScene())
	c := dial(t, s)
	c.recv(nil)
	s.Close()
	_, _, err := c.conn.Read(c.ctx)
	var ce websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.StatusGoingAway || ce.Reason != closingReason {
		t.Errorf("closed with %v, want going away, %q", err, closingReason)
	}
}
