package daemon

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"
	"github.com/rs/zerolog"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/osc"
)

var oscBase = simOnTheBuiltinScene + "[frame]\ncount_tris = false\n"

// TestOSCDefaultsAreNotVRChats: the default listen and target ports are
// gloved's own, and the policy's defaults come through the config.
func TestOSCDefaultsAreNotVRChats(t *testing.T) {
	c, err := ParseConfig("lab.toml", []byte(oscBase))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{c.OSC.Listen, osc.DefaultListen, osc.DefaultTarget} {
		if ap := netip.MustParseAddrPort(a); ap.Port() == 9000 || ap.Port() == 9001 || !ap.Addr().IsLoopback() {
			t.Errorf("default address %s: want a loopback address off VRChat's 9000 and 9001", a)
		}
	}
	p, err := c.OSC.Policy()
	want := osc.DefaultPolicy()
	if err != nil || p.Lease != want.Lease || p.PerSource != want.PerSource || p.WristBox != want.WristBox || len(p.Allow) != 0 {
		t.Errorf("policy %+v, %v; want %+v", p, err, want)
	}
}

// TestOSCConfigErrorsNameTheKey: bad [osc] security settings are config
// errors naming the key.
func TestOSCConfigErrorsNameTheKey(t *testing.T) {
	tests := []struct{ osc, says string }{
		{`allow = ["192.168.1.0/33"]`, `osc.allow[0] = "192.168.1.0/33"`},
		{`allow = ["127.0.0.1", "lab-pc"]`, `osc.allow[1] = "lab-pc"`},
		{`lease_s = 0.5`, "osc.lease_s = 0.5"},
		{`lease_s = 7200.0`, "osc.lease_s = 7200"},
		{`subscribers_per_source = 33`, "osc.subscribers_per_source = 33"},
		{`subscribers_per_source = -1`, "osc.subscribers_per_source = -1"},
		{`wrist_box = [1.0, 2.0, 3.0]`, "osc.wrist_box: want 6 numbers"},
		{`wrist_box = [-1.0, 0.0, -1.0, 1.0, 0.0, 1.0]`, "osc.wrist_box = [-1 0 -1 1 0 1]"},
		{`wrist_box = [-1.0, 0.0, -1.0, 1.0, nan, 1.0]`, "osc.wrist_box"},
		{`wrist_box = [-inf, 0.0, -1.0, 1.0, 2.0, 1.0]`, "osc.wrist_box"},
		{`wrist_box = [-1e300, 0.0, -1.0, 1.0, 2.0, 1.0]`, "osc.wrist_box = [-1e+300 0 -1 1 2 1]: want each minimum below its maximum, all within ±100 m"},
	}
	for _, tc := range tests {
		_, err := ParseConfig("lab.toml", []byte(oscBase+"[osc]\n"+tc.osc+"\n"))
		if err == nil || !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: got %v, want a config error saying %q", tc.osc, err, tc.says)
		}
	}
}

// TestDaemonAppliesItsOSCPolicy: the running daemon's hub has the
// configured policy; over loopback, a subscription is acknowledged and
// frames follow, a wrist pose inside the box moves the wrist and one
// outside it is counted and dropped; frames count their non-finite drops
// in the hub's stats.
func TestDaemonAppliesItsOSCPolicy(t *testing.T) {
	d, done, stop := startDaemon(t, 20*time.Second, "policy.toml", oscBase+`
[osc]
listen = "127.0.0.1:0"
allow = ["192.0.2.0/24", "10.1.2.3"]
lease_s = 4.0
subscribers_per_source = 2
wrist_box = [-1.0, 0.0, -1.0, 1.0, 2.0, 1.0]
`)
	p := d.hub.Policy()
	wantAllow := []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24"), netip.MustParsePrefix("10.1.2.3/32")}
	if fmt.Sprint(p.Allow) != fmt.Sprint(wantAllow) || p.Lease != 4*time.Second || p.PerSource != 2 ||
		p.WristBox != (geom.AABB{Min: geom.Vec3{X: -1, Z: -1}, Max: geom.Vec3{X: 1, Y: 2, Z: 1}}) {
		t.Fatalf("policy %+v", p)
	}
	if d.hands[0].writer.NonFinite != &d.hub.Stats.NonFinite {
		t.Fatal("the hand's writer does not count non-finite drops in the hub's stats")
	}
	app := loopbackApp(t)
	send := func(m *goosc.Message) { sendOSC(t, app, d, m) }
	port := app.LocalAddr().(*net.UDPAddr).Port
	send(goosc.NewMessage("/gloved/subscribe", "127.0.0.1", int32(port)))
	// A frame may overtake the acknowledgement: it goes out as soon as
	// the subscription is in.
	var ack goosc.Packet
	frames := 0
	for ack == nil || frames == 0 {
		switch p := readPacket(t, app).(type) {
		case *goosc.Bundle:
			frames++
		default:
			ack = p
		}
	}
	if fmt.Sprint(ack) != fmt.Sprintf("/gloved/subscribed ,sif 127.0.0.1 %d 4", port) {
		t.Fatalf("reply %v, want the acknowledgement", ack)
	}
	send(wristPose("right", 0.5, 3))
	send(wristPose("right", 0.5, 1.5))
	waitUntil(t, "the wrist pose", func() bool { return wristAt(d, 0.5, 1.5) })
	if n := d.hub.Stats.BadPoses.Load(); n != 1 {
		t.Fatalf("%d bad poses counted, want 1", n)
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestDaemonWarnsWhenListeningBeyondLoopback: listening on a wildcard or
// LAN address without osc.allow logs a warning at start; with an allow
// list it does not.
func TestDaemonWarnsWhenListeningBeyondLoopback(t *testing.T) {
	for _, tc := range []struct {
		osc   string
		warns bool
	}{
		{`listen = "127.0.0.1:0"`, false},
		{`listen = "0.0.0.0:0"`, true},
		{"listen = \"0.0.0.0:0\"\nallow = [\"192.0.2.0/24\"]", false},
	} {
		var log lockedBuffer
		cfg, err := ParseConfig("lab.toml", []byte(oscBase+"[osc]\n"+tc.osc+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		d, err := New(cfg, zerolog.New(&log))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		err = d.Run(ctx)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		warned := strings.Contains(log.String(), `"level":"warn"`) && strings.Contains(log.String(), "without osc.allow")
		if warned != tc.warns {
			t.Errorf("%s: warned %v, want %v; log:\n%s", tc.osc, warned, tc.warns, log.String())
		}
	}
}

// TestOSCSecurityCountersAreMetrics: every hub counter is served at
// /metrics under its gloved_osc_ name.
func TestOSCSecurityCountersAreMetrics(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	d, done, stop := startDaemon(t, 3*time.Second, "metrics.toml", oscBase+"[osc]\nlisten = \"127.0.0.1:0\"\n[metrics]\nlisten = \""+addr+"\"\n")
	d.hub.Stats.Denied.Add(3)
	var body string
	waitUntil(t, "the metrics endpoint", func() bool {
		r, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			return false
		}
		defer r.Body.Close()
		b, _ := io.ReadAll(r.Body)
		body = string(b)
		return true
	})
	for _, c := range d.hub.Stats.Counters() {
		if !strings.Contains(body, "gloved_osc_"+c.Name+"_total") {
			t.Errorf("metric gloved_osc_%s_total missing", c.Name)
		}
	}
	if !strings.Contains(body, "gloved_osc_denied_total 3") || !strings.Contains(body, "gloved_osc_malformed_total 0") {
		t.Errorf("metrics:\n%s", body)
	}
	stop()
	<-done
}

func readPacket(t *testing.T, c *net.UDPConn) goosc.Packet {
	t.Helper()
	buf := make([]byte, 65536)
	c.SetReadDeadline(time.Now().Add(2 * time.Second))
	n, _, err := c.ReadFrom(buf)
	if err != nil {
		t.Fatal(err)
	}
	p, err := goosc.ParsePacket(string(buf[:n]))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// lockedBuffer is a log sink safe for the daemon's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestDaemonTakesBundlesWholeOrNotAtAll: through the daemon's socket, a
// wrist pose at the end of a 60 kB bundle moves the wrist and every
// message before it is counted; a bundle whose element size is -100 is
// counted malformed and the pose in it is not applied.
func TestDaemonTakesBundlesWholeOrNotAtAll(t *testing.T) {
	d, done, stop := startDaemon(t, 20*time.Second, "bundles.toml", oscBase+"[osc]\nlisten = \"127.0.0.1:0\"\n")
	app := loopbackApp(t)
	encode := func(ms ...*goosc.Message) []byte {
		b := goosc.NewBundle(time.Now())
		for _, m := range ms {
			b.Append(m)
		}
		out, err := b.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	var ms []*goosc.Message
	for range 3000 {
		ms = append(ms, goosc.NewMessage("/gloved/pad"))
	}
	if _, err := app.WriteTo(encode(append(ms, wristPose("right", 0.5, 1.5))...), d.hub.Addr()); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the pose at the end of the 60 kB bundle", func() bool { return wristAt(d, 0.5, 1.5) })
	if n := d.hub.Stats.Unknown.Load(); n != 3000 {
		t.Errorf("%d unknown messages counted, want the 3000 before the pose", n)
	}
	bad := encode(wristPose("right", 0.25, 1.5))
	binary.BigEndian.PutUint32(bad[16:], uint32(0xffffff9c)) // the element's size: -100
	if _, err := app.WriteTo(bad, d.hub.Addr()); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the malformed bundle counted", func() bool { return d.hub.Stats.Malformed.Load() == 1 })
	if !wristAt(d, 0.5, 1.5) {
		t.Errorf("the pose of a bundle with an element of size -100 was applied")
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestDaemonCountsWristPosesForNoHand: a wrist pose for a hand the config
// does not have is counted as unknown (gloved_osc_unknown_total) and
// moves no hand; one for the configured hand moves it.
func TestDaemonCountsWristPosesForNoHand(t *testing.T) {
	d, done, stop := startDaemon(t, 20*time.Second, "hands.toml", oscBase+"[osc]\nlisten = \"127.0.0.1:0\"\n")
	app := loopbackApp(t)
	sendOSC(t, app, d, wristPose("lefty", 0.25, 1.5))
	sendOSC(t, app, d, wristPose("right", 0.5, 1.5))
	waitUntil(t, "the right hand's pose", func() bool { return wristAt(d, 0.5, 1.5) })
	if n := d.hub.Stats.Unknown.Load(); n != 1 {
		t.Errorf("%d unknown messages counted, want the pose for lefty", n)
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// loopbackApp is an app's socket on loopback, closed when the test ends.
func loopbackApp(t *testing.T) *net.UDPConn {
	t.Helper()
	app, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { app.Close() })
	return app
}

// sendOSC sends m from app to d's OSC socket.
func sendOSC(t *testing.T, app *net.UDPConn, d *Daemon, m *goosc.Message) {
	t.Helper()
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := app.WriteTo(b, d.hub.Addr()); err != nil {
		t.Fatal(err)
	}
}

// wristPose is a wrist pose for hand at (x, y, 0), not rotated.
func wristPose(hand string, x, y float32) *goosc.Message {
	return goosc.NewMessage("/gloved/"+hand+"/wrist", x, y, float32(0), float32(0), float32(0), float32(0), float32(1))
}

// wristAt reports whether d's first hand's wrist is at (x, y, 0).
func wristAt(d *Daemon, x, y float64) bool {
	w, _, _ := d.hands[0].peekStatus()
	return w.T == geom.Vec3{X: x, Y: y}
}
