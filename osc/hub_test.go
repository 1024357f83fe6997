package osc

import (
	"context"
	"math/rand/v2"
	"net"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"
	goosc "github.com/hypebeast/go-osc/osc"
)

func startHub(t *testing.T) (*Hub, *net.UDPConn) {
	t.Helper()
	h, err := Listen("127.0.0.1:0", "/gloved")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { h.Serve(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	app, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { app.Close() })
	return h, app
}

func sendMsg(t *testing.T, app *net.UDPConn, to net.Addr, m *goosc.Message) {
	t.Helper()
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := app.WriteTo(b, to); err != nil {
		t.Fatal(err)
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func frameFor(seq int32) *Frame {
	return &Frame{
		Seq: seq, PipelineMS: 0.3,
		Joints:   []float64{0.1, 0.2},
		Links:    []Pose{{P: mgl64.Vec3{1, 2, 3}, Q: mgl64.QuatIdent()}},
		Contacts: []Contact{{Link: "index3", Object: "ball", Depth: 0.002, Point: mgl64.Vec3{0, 0.8, 0}, Normal: mgl64.Vec3{0, 1, 0}}},
		Near:     []Near{{Link: "thumb3", Object: "ball", Distance: 0.004, Point: mgl64.Vec3{0.01, 0.8, 0}}},
		Touches:  []Touch{{Link: "index3", Object: "ball", Begin: true}},
		Status:   "streaming",
	}
}

func receive(t *testing.T, app *net.UDPConn) *goosc.Bundle {
	t.Helper()
	buf := make([]byte, 65536)
	app.SetReadDeadline(time.Now().Add(2 * time.Second))
	n, _, err := app.ReadFrom(buf)
	if err != nil {
		t.Fatal(err)
	}
	p, err := goosc.ParsePacket(string(buf[:n]))
	if err != nil {
		t.Fatal(err)
	}
	return p.(*goosc.Bundle)
}

func TestSubscribeReceiveUnsubscribe(t *testing.T) {
	h, app := startHub(t)
	me := app.LocalAddr().(*net.UDPAddr)
	sendMsg(t, app, h.Addr(), goosc.NewMessage("/gloved/subscribe", "127.0.0.1", int32(me.Port)))
	if m := receiveMessage(t, app); m.Address != "/gloved/subscribed" {
		t.Fatalf("got %v, want the acknowledgement", m)
	}
	waitFor(t, "the subscription", func() bool { return len(h.Subscribers()) == 1 })
	var w Writer
	w.Begin(Timetag(time.Now()))
	AppendFrame(&w, HandAddresses("/gloved", "right"), frameFor(5))
	h.Send(w.Packets())
	b := receive(t, app)
	want := []struct {
		addr string
		tags string
	}{
		{"/gloved/right/frame", ",ifi"}, {"/gloved/right/sample", ",i"}, {"/gloved/right/joints", ",ff"}, {"/gloved/right/links", ",fffffff"},
		{"/gloved/right/contact", ",ssfffffff"}, {"/gloved/right/near", ",ssffff"}, {"/gloved/right/touch", ",ssi"}, {"/gloved/right/status", ",s"},
	}
	if len(b.Messages) != len(want) {
		t.Fatalf("%d messages, want %d", len(b.Messages), len(want))
	}
	for i, m := range b.Messages {
		tags, _ := m.TypeTags()
		if m.Address != want[i].addr || tags != want[i].tags {
			t.Errorf("message %d: %s %s, want %s %s", i, m.Address, tags, want[i].addr, want[i].tags)
		}
	}
	if b.Messages[0].Arguments[0] != int32(5) || b.Messages[3].Arguments[6] != float32(1) {
		t.Errorf("frame %v, links %v", b.Messages[0], b.Messages[3])
	}
	sendMsg(t, app, h.Addr(), goosc.NewMessage("/gloved/unsubscribe", "127.0.0.1", int32(me.Port)))
	waitFor(t, "the unsubscription", func() bool { return len(h.Subscribers()) == 0 })
}

func TestHostileInputIsCountedAndDropped(t *testing.T) {
	h, app := startHub(t)
	r := rand.New(rand.NewPCG(81, 81))
	var mu sync.Mutex
	var wrists []mgl64.Vec3
	h.OnWrist = func(hand string, p mgl64.Vec3, q mgl64.Quat) bool {
		mu.Lock()
		defer mu.Unlock()
		if hand == "right" {
			wrists = append(wrists, p)
		}
		return hand == "right"
	}
	hostile := [][]byte{
		[]byte("/foo[\x00\x00\x00,i\x00\x00\x00\x00\x00\x01"),
		[]byte("#bundle\x00"),
		[]byte("/gloved/subscribe\x00\x00\x00,si"),
		[]byte("/gloved/right/wrist\x00,fff\x00\x00\x00\x00"),
		[]byte("/x\x00\x00,Q\x00\x00"),
		make([]byte, 60000),
	}
	for range 500 {
		b := make([]byte, r.IntN(300))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		hostile = append(hostile, b)
	}
	for _, tag := range "ifsbhtdSrmcTFNI[]" {
		hostile = append(hostile, append([]byte("/gloved/right/wrist\x00,"), byte(tag), 0, 0, 1, 2, 3, 4))
	}
	for i, b := range hostile {
		app.WriteTo(b, h.Addr())
		if i%20 == 19 {
			time.Sleep(time.Millisecond) // let the hub keep up: UDP drops what overflows
		}
	}
	bad := []*goosc.Message{
		goosc.NewMessage("/gloved/subscribe", "not an ip", int32(5)),
		goosc.NewMessage("/gloved/subscribe", "127.0.0.1", int32(70000)),
		goosc.NewMessage("/gloved/right/wrist", float32(1), float32(2)),
		goosc.NewMessage("/gloved/right/wrist", float32(1), float32(2), float32(3), float32(0), float32(0), float32(0), float32(0)),
	}
	for _, m := range bad {
		sendMsg(t, app, h.Addr(), m)
		time.Sleep(time.Millisecond)
	}
	// After all that, the hub still serves: a wrist pose and a
	// subscription. UDP may drop datagrams when the burst above fills the
	// socket buffer (as under the race detector), so the client repeats
	// them, as a real one would.
	me := app.LocalAddr().(*net.UDPAddr)
	waitFor(t, "the hub to serve again", func() bool {
		sendMsg(t, app, h.Addr(), goosc.NewMessage("/gloved/right/wrist", float32(0.1), float32(1.2), float32(-0.3), float32(0), float32(0), float32(0), float32(1)))
		sendMsg(t, app, h.Addr(), goosc.NewMessage("/gloved/subscribe", "127.0.0.1", int32(me.Port)))
		time.Sleep(5 * time.Millisecond)
		mu.Lock()
		defer mu.Unlock()
		return len(wrists) >= 1 && len(h.Subscribers()) == 1
	})
	if wrists[0].Sub(mgl64.Vec3{0.1, 1.2, -0.3}).Len() > 1e-6 {
		t.Errorf("wrist %v", wrists[0])
	}
	if h.Stats.Malformed.Load() < 100 || h.Stats.Rejected.Load() < 3 || h.Stats.BadPoses.Load() < 1 {
		t.Errorf("malformed %d, rejected %d, bad poses %d: hostile packets went uncounted",
			h.Stats.Malformed.Load(), h.Stats.Rejected.Load(), h.Stats.BadPoses.Load())
	}
}

func TestTouchHysteresis(t *testing.T) {
	var tt TouchTracker
	tt.Reset(2, 2)
	links, objs := []string{"a", "b"}, []string{"ball", "table"}
	frames := [][][2]int{
		{{0, 0}},   // a-ball begins
		{},         // one miss
		{{0, 0}},   // back: no edge
		{}, {}, {}, // three misses: ends
		{{0, 0}, {1, 1}}, // two begin
	}
	var got []Touch
	for _, f := range frames {
		got = tt.Update(f, links, objs, got)
	}
	want := []Touch{{"a", "ball", true}, {"a", "ball", false}, {"a", "ball", true}, {"b", "table", true}}
	if len(got) != len(want) {
		t.Fatalf("edges %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("edge %d: %v, want %v", i, got[i], want[i])
		}
	}
}

func TestSendAllocatesNothing(t *testing.T) {
	h, app := startHub(t)
	if err := h.AddTarget(app.LocalAddr().String()); err != nil {
		t.Fatal(err)
	}
	var w Writer
	frame := frameFor(1)
	addr := HandAddresses("/gloved", "right")
	send := func() {
		w.Begin(42)
		AppendFrame(&w, addr, frame)
		h.Send(w.Packets())
	}
	send()
	if n := testing.AllocsPerRun(200, send); n != 0 {
		t.Fatalf("%v allocations per frame sent", n)
	}
}

// TestExposedListenWarns: a hub listening on a non-loopback address
// without an allow list says so when it starts serving.
func TestExposedListenWarns(t *testing.T) {
	for _, tc := range []struct {
		listen string
		allow  []netip.Prefix
		warns  bool
	}{
		{"127.0.0.1:0", nil, false},
		{"[::1]:0", nil, false},
		{"0.0.0.0:0", nil, true},
		{"0.0.0.0:0", []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}, false},
	} {
		h, err := Listen(tc.listen, "/gloved")
		if err != nil {
			t.Fatal(err)
		}
		var logs logLines
		h.Log = logs.log
		h.SetPolicy(Policy{Allow: tc.allow})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		h.Serve(ctx)
		warned := len(logs.all()) == 1 && strings.Contains(logs.all()[0], "osc.allow")
		if warned != tc.warns {
			t.Errorf("listen %s, allow %v: log %q, want a warning: %v", tc.listen, tc.allow, logs.all(), tc.warns)
		}
	}
}
