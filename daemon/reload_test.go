package daemon

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/daemon/daemontest"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// freeUDPPort returns a loopback port nothing listens on (now).
func freeUDPPort(t *testing.T) string {
	t.Helper()
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return c.LocalAddr().String()
}

// palmAt reports whether the last frame of hand in bundles has its palm
// at p (the links message's first position).
func lastPalm(bundles []*goosc.Bundle, hand string) ([3]float32, bool) {
	for i := len(bundles) - 1; i >= 0; i-- {
		for _, m := range bundles[i].Messages {
			if m.Address == "/gloved/"+hand+"/links" && len(m.Arguments) >= 3 {
				return [3]float32{m.Arguments[0].(float32), m.Arguments[1].(float32), m.Arguments[2].(float32)}, true
			}
		}
	}
	return [3]float32{}, false
}

// running is a Service run on a config file, SIGHUP sent through
// reload, with a subscriber's socket and one dialled to its OSC listen
// address for control messages.
type running struct {
	reload chan os.Signal
	done   chan error // Run's result
	cancel context.CancelFunc
	sub    *net.UDPConn
	got    *daemontest.Received
	ctl    net.Conn
}

// runService runs the service on cfgPath, whose OSC listen address is
// listen.
func runService(t *testing.T, cfgPath, listen string) running {
	t.Helper()
	r := running{reload: make(chan os.Signal, 1), done: make(chan error, 1)}
	svc := Service{Path: cfgPath, Log: io.Discard, Reload: r.reload}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go func() { r.done <- svc.Run(ctx) }()
	r.sub, r.got = daemontest.Listen(t)
	ctl, err := net.Dial("udp", listen)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { ctl.Close() })
	r.ctl = ctl
	return r
}

// TestReloadKeepsTheRunningDaemonAndItsState: a config that does not parse
// or does not load (a named pipe for its scene among them: it must not
// block the reload), or listens where it cannot, leaves the running daemon
// as it was, never restarted, its subscriber served throughout; a good one
// replaces it, and the subscriber, the wrist pose set over OSC and the
// recording so far all survive.
func TestReloadKeepsTheRunningDaemonAndItsState(t *testing.T) {
	dir := t.TempDir()
	cfgPath, rec, listen := filepath.Join(dir, "g.toml"), filepath.Join(dir, "session.glove"), freeUDPPort(t)
	pipe := filepath.Join(dir, "scene.obj")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	writeScene := func(scene, log string) {
		writeConfig(t, cfgPath, hand("right", "sim", quoted("recording", rec))+sections{scene: scene, listen: listen}.String()+"[log]\nlevel = \"error\"\n"+log)
	}
	write := func(log string) { writeScene("", log) }
	write("")
	sd := fakeSystemd(t, 400*time.Millisecond)
	r := runService(t, cfgPath, listen)
	reload, done, cancel, sub, got, ctl := r.reload, r.done, r.cancel, r.sub, r.got, r.ctl
	send := func(m *goosc.Message) {
		b, _ := m.MarshalBinary()
		ctl.Write(b)
	}
	me := sub.LocalAddr().(*net.UDPAddr)
	framesAfter := func(n int) bool {
		return waitFor(3*time.Second, func() bool { return daemontest.Frames(got.All(), "right") > n })
	}
	if !waitFor(3*time.Second, func() bool {
		send(goosc.NewMessage("/gloved/subscribe", "127.0.0.1", int32(me.Port)))
		return daemontest.Frames(got.All(), "right") > 10
	}) {
		t.Fatal("the subscriber received no frames")
	}
	send(goosc.NewMessage("/gloved/right/wrist", float32(0.25), float32(1.5), float32(-0.5), float32(0), float32(0), float32(0), float32(1)))
	if !waitFor(2*time.Second, func() bool { p, _ := lastPalm(got.All(), "right"); return p == [3]float32{0.25, 1.5, -0.5} }) {
		t.Fatal("the wrist set over OSC did not move the palm")
	}

	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	for _, bad := range []struct{ name, scene, extra, listen string }{
		{"does not parse", "", "[frame\n", ""},
		{"does not load", "", "[[hand]]\nname = \"left\"\ndevice = \"replay\"\nrecording = \"no-such.glove\"\n", ""},
		{"names a named pipe as its scene", pipe, "", ""},
		// It would move the OSC socket, which drops run-time
		// subscribers, and cannot serve its page where a port is taken.
		{"moves the OSC socket and puts its page on a port in use", "", fmt.Sprintf("[view]\nlisten = %q\n", busy.Addr()), freeUDPPort(t)},
	} {
		writeConfig(t, cfgPath, hand("right", "sim", quoted("recording", rec))+sections{scene: bad.scene, listen: cmp.Or(bad.listen, listen)}.String()+"[log]\nlevel = \"error\"\n"+bad.extra)
		n := daemontest.Frames(got.All(), "right")
		reload <- syscall.SIGHUP
		time.Sleep(300 * time.Millisecond)
		if !framesAfter(n + 30) {
			t.Fatalf("a config that %s stopped the daemon", bad.name)
		}
		select {
		case err := <-done:
			t.Fatalf("a config that %s ended the service: %v", bad.name, err)
		default:
		}
		if _, err := os.Stat(filepath.Join(dir, "session.1.glove")); err == nil {
			t.Fatalf("a config that %s restarted the running daemon: its recording was split", bad.name)
		}
	}

	write("format = \"json\"\n") // in [log]: a change that parses and loads
	reload <- syscall.SIGHUP
	// The new daemon has started once it has begun its own recording (the
	// earlier one is kept as session.1.glove); count frames from then on.
	kept := filepath.Join(dir, "session.1.glove")
	if !waitFor(10*time.Second, func() bool { _, err := os.Stat(kept); return err == nil }) {
		t.Fatal("the good config did not replace the running daemon")
	}
	n := len(got.All())
	if !waitFor(5*time.Second, func() bool { return daemontest.Frames(got.All()[n:], "right") > 50 }) {
		t.Fatal("after a good reload the subscriber received no frames: the subscription was lost")
	}
	if p, _ := lastPalm(got.All()[n:], "right"); p != [3]float32{0.25, 1.5, -0.5} {
		t.Errorf("after the reload the palm is at %v: the wrist set over OSC was lost", p)
	}
	if !sd.sequence("READY=1", "RELOADING=1", "READY=1") || sd.count("STOPPING=1") != 0 {
		t.Errorf("systemd was told %v: a reload is RELOADING then READY, never STOPPING", sd.all())
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// The session before the reload is kept whole beside the new one.
	for _, path := range []string{filepath.Join(dir, "session.1.glove"), rec} {
		if n, _ := recorded(t, path); n < 20 {
			t.Errorf("%s: %d samples", path, n)
		}
	}
}

// TestReloadReplacesTheProfiles: a reload that swaps a vmc profile for an
// openxr one stops the bones and starts the joints, each at its own
// targets, while the run-time subscriber keeps getting gloved's frames.
func TestReloadReplacesTheProfiles(t *testing.T) {
	dir := t.TempDir()
	cfgPath, listen := filepath.Join(dir, "g.toml"), freeUDPPort(t)
	vmcRx, vmcGot := daemontest.ListenAny(t)
	xrRx, xrGot := daemontest.ListenAny(t)
	write := func(profile string, rx net.Conn) {
		writeConfig(t, cfgPath, hand("right", "sim")+sections{listen: listen}.String()+"[log]\nlevel = \"error\"\n"+
			profileTable(profile, targets(rx.LocalAddr().String())))
	}
	write("vmc", vmcRx)
	r := runService(t, cfgPath, listen)
	reload, done, cancel, sub, got, ctl := r.reload, r.done, r.cancel, r.sub, r.got, r.ctl
	me := sub.LocalAddr().(*net.UDPAddr)
	b, _ := goosc.NewMessage("/gloved/subscribe", "127.0.0.1", int32(me.Port)).MarshalBinary()
	bones := func() int { return vmcGot.Count("/VMC/Ext/Bone/Pos") }
	if !waitFor(5*time.Second, func() bool { ctl.Write(b); return daemontest.Frames(got.All(), "right") > 10 && bones() > 150 }) {
		t.Fatalf("before the reload: %d frames to the subscriber, %d vmc bones", daemontest.Frames(got.All(), "right"), bones())
	}
	write("openxr", xrRx)
	reload <- syscall.SIGHUP
	joints := func() int { return xrGot.Count("/gloved/right/xr/index-finger-tip") }
	if !waitFor(10*time.Second, func() bool { return joints() > 20 }) {
		t.Fatal("after the reload the openxr profile sent no joints")
	}
	nBones, nFrames := bones(), len(got.All())
	if !waitFor(5*time.Second, func() bool { return daemontest.Frames(got.All()[nFrames:], "right") > 30 }) {
		t.Fatal("after the reload the subscriber received no frames: the subscription was lost")
	}
	if n := bones(); n != nBones {
		t.Errorf("the vmc profile sent %d bones after it was replaced", n-nBones)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// scrape reads the metrics served at addr, by name with their labels
// (`gloved_stage_seconds_count{stage="pose"}`); nil while none are.
func scrape(addr string) map[string]float64 {
	r, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		return nil
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	out := map[string]float64{}
	for _, l := range strings.Split(string(b), "\n") {
		name, v, ok := strings.Cut(l, " ")
		if f, err := strconv.ParseFloat(v, 64); ok && err == nil && !strings.HasPrefix(l, "#") {
			out[name] = f
		}
	}
	return out
}

// TestMetricsCountOnThroughReloads: Prometheus counters reset only with
// the process: through a reload that rebuilds the hands (a left hand
// added) and one that moves osc.listen (a new hub, the left hand gone),
// the frames, contacts, stage times and OSC packets counted never go
// back.
func TestMetricsCountOnThroughReloads(t *testing.T) {
	dir := t.TempDir()
	cfgPath, listen, metrics := filepath.Join(dir, "g.toml"), freeUDPPort(t), freeTCPPort(t)
	target, _ := daemontest.ListenAny(t)
	right, left := hand("right", "sim", demoWrist), hand("left", "sim", `side = "left"`)
	write := func(hands, listen string) {
		writeConfig(t, cfgPath, hands+sections{listen: listen, target: target.LocalAddr().String()}.String()+
			"[log]\nlevel = \"error\"\n[metrics]\nlisten = \""+metrics+"\"\n")
	}
	write(right, listen)
	r := runService(t, cfgPath, listen)
	watched := []string{"gloved_frames_total", "gloved_contacts_total", `gloved_stage_seconds_count{stage="pose"}`, "gloved_osc_packets_sent_total"}
	var last map[string]float64
	if !waitFor(10*time.Second, func() bool {
		last = scrape(metrics)
		return last["gloved_frames_total"] >= 200 && last["gloved_contacts_total"] > 0
	}) {
		t.Fatalf("before the reloads: %v", last)
	}
	hasLeft := func(m map[string]float64) bool {
		return m[`gloved_hand_status{hand="left",status="streaming"}`] == 1
	}
	for _, step := range []struct {
		what         string
		hands, oscAt string
		done         func(map[string]float64) bool
	}{
		{"a left hand added", right + left, listen, hasLeft},
		{"osc.listen moved, the left hand gone", right, freeUDPPort(t), func(m map[string]float64) bool { return m != nil && !hasLeft(m) }},
	} {
		before := last
		write(step.hands, step.oscAt)
		r.reload <- syscall.SIGHUP
		if !waitFor(10*time.Second, func() bool { last = scrape(metrics); return step.done(last) }) {
			t.Fatalf("%s: the new daemon did not come up: %v", step.what, last)
		}
		for _, name := range watched {
			if last[name] < before[name] {
				t.Errorf("%s: %s went back from %v to %v", step.what, name, before[name], last[name])
			}
		}
	}
	r.cancel()
	if err := <-r.done; err != nil {
		t.Fatal(err)
	}
}

// TestAReloadPreparesTheNextSceneBeforeTheRunningDaemonStops: a reload
// to a scene with a closed non-convex object builds the object's tree,
// signed-distance data and grid while the running daemon still sends
// frames: once it has stopped, the next scene is already prepared, and
// the next daemon's hands take those preparations rather than building
// them again (a scene of millions of triangles stops the hands for the
// time a daemon takes to open, not for seconds of building).
func TestAReloadPreparesTheNextSceneBeforeTheRunningDaemonStops(t *testing.T) {
	dir := t.TempDir()
	cfgPath, scenePath := filepath.Join(dir, "g.toml"), filepath.Join(dir, "torus.obj")
	var obj bytes.Buffer
	if err := env.WriteOBJ(&obj, env.Torus("ring", geom.Vec3{Y: 0.05}, 0.08, 0.03, 40, 20)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(scenePath, obj.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	rx, got := daemontest.Listen(t)
	writeConfig(t, cfgPath, hand("right", "sim")+builtinScene(rx.LocalAddr().String())+"[log]\nlevel = \"error\"\n")
	carriedAt := make(chan carried, 1)
	running := make(chan *contact.Shared, 100)
	reload := make(chan os.Signal, 1)
	svc := Service{Path: cfgPath, Log: io.Discard, Reload: reload,
		beforeReplace: func(c *carried) { carriedAt <- *c },
		Tick:          func(d *Daemon) { running <- d.shared }}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- svc.Run(ctx) }()
	if !waitFor(5*time.Second, func() bool { return daemontest.Frames(got.All(), "right") > 20 }) {
		t.Fatal("no frames before the reload")
	}
	writeConfig(t, cfgPath, hand("right", "sim")+sections{scene: scenePath, target: rx.LocalAddr().String()}.String()+"[log]\nlevel = \"error\"\n")
	reload <- syscall.SIGHUP
	var c carried
	select {
	case c = <-carriedAt:
	case <-time.After(20 * time.Second):
		t.Fatal("the reload never stopped the running daemon")
	}
	if c.shared == nil || c.shared.Mesh() != c.scene {
		t.Fatalf("the reload carried no preparations of its scene (%v)", c.shared)
	}
	// The torus's surface and its grid: both built before the stop.
	if n := c.shared.Len(); n < 2 {
		t.Fatalf("when the running daemon stopped, the next scene held %d preparations, want the torus's surface and grid", n)
	}
	for deadline := time.Now().Add(20 * time.Second); ; {
		select {
		case s := <-running:
			if s == c.shared {
				cancel()
				if err := <-done; err != nil {
					t.Fatal(err)
				}
				return
			}
		case <-time.After(time.Until(deadline)):
			t.Fatal("the next daemon never ran on the preparations the reload made")
		}
	}
}
