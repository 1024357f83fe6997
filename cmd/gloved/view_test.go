package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io/fs"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/go-gl/mathgl/mgl64"
	goosc "github.com/hypebeast/go-osc/osc"
	"github.com/qmuntal/gltf"

	"github.com/gloved/gloved/animation"
	"github.com/gloved/gloved/configs"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/internal/netns"
	"github.com/gloved/gloved/session"
	"github.com/gloved/gloved/view"
	"github.com/gloved/gloved/view/viewtest"
)

// browser is held by the test whose Chromium runs: the browser tests run
// in parallel with the others, but one Chromium at a time (each takes
// most of a core to draw its page).
var browser = make(chan struct{}, 1)

// chromium starts a headless Chromium once no other test's runs, or skips
// the test where there is none (.ci/run installs Debian's chromium).
func chromium(t *testing.T) *viewtest.Browser {
	t.Helper()
	fullRunOnly(t)
	path := viewtest.Path()
	if path == "" {
		netns.Skipf(t, "no Chromium on this machine: install Debian's chromium package (.ci/run does) to test the live page")
	}
	browser <- struct{}{}
	b, err := viewtest.Launch(path)
	if err != nil {
		<-browser
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("page console: %v", b.Console)
		}
		b.Close()
		<-browser
	})
	return b
}

// keepScreenshot writes the page's screenshot as name in $GLOVED_ARTIFACTS
// (CI keeps that directory) or the test's temporary directory, and, with
// GLOVED_UPDATE_DOCS=1, in docs/ for the pages that show it. It checks that the page
// drew a picture, not a blank canvas.
func keepScreenshot(t *testing.T, b *viewtest.Browser, name string) {
	t.Helper()
	data, img := screenshot(t, b)
	colours := map[uint32]bool{}
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y += 4 {
		for x := r.Min.X; x < r.Max.X; x += 4 {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			colours[cr>>11<<10|cg>>11<<5|cb>>11] = true
		}
	}
	if len(colours) < 50 {
		t.Errorf("the screenshot has %d colours: the 3-D view drew nothing", len(colours))
	}
	dir := os.Getenv("GLOVED_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("GLOVED_UPDATE_DOCS") == "1" {
		if err := os.WriteFile(filepath.Join("..", "..", "docs", name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// openPaused opens the page at url, waits until it has drawn five frames
// and ready holds, and pauses it; a frame on its way is let arrive (and
// not drawn).
func openPaused(t *testing.T, b *viewtest.Browser, url, ready string) {
	t.Helper()
	if err := b.Navigate(url); err != nil {
		t.Fatal(err)
	}
	// The page pauses in the same script turn that finds it ready: no
	// frame can come between (one did, under load, and the page showed a
	// later frame than the one that was ready).
	if err := b.WaitFor("!!(window.gloved && gloved.frames > 5 && ("+ready+") && (gloved.pause(), true))", 60*time.Second); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
}

// shownContact is a contact as the page draws it, and as OSC sends it.
type shownContact struct {
	Link, Object string
	Depth        float32
}

// sameContacts reports whether the page shows the contacts sent, in
// order, with depths equal to within float32 rounding (1e-6 m: contacts
// --json rounds to 1e-9 m before the page's float32).
func sameContacts(shown, sent []shownContact) bool {
	if len(shown) != len(sent) {
		return false
	}
	for i := range shown {
		a, b := shown[i], sent[i]
		if a.Link != b.Link || a.Object != b.Object || math.Abs(float64(a.Depth-b.Depth)) > 1e-6 {
			return false
		}
	}
	return true
}

// pageHand is a hand as the page's state shows it.
type pageHand struct {
	Seq      int32
	T        float64
	Status   string
	Contacts []shownContact
}

type pageState struct {
	Scene struct {
		Objects []string
		Hands   []struct {
			Name  string
			Links int
		}
	}
	SceneObjects int
	HandLinks    []int
	Arrows       int
	Frames       int
	Hands        []pageHand
}

func readState(t *testing.T, b *viewtest.Browser) pageState {
	t.Helper()
	var st pageState
	if err := b.Eval(`JSON.parse(JSON.stringify({scene: gloved.scene, sceneObjects: gloved.sceneObjects, handLinks: gloved.handLinks,
		arrows: gloved.arrows, frames: gloved.frames, hands: gloved.hands.map((h) => h && {seq: h.seq, t: h.t, status: h.status, contacts: h.contacts})}))`, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// oscFrames collects, by frame number, the contacts and link count each
// /gloved/right frame carried on the wire.
type oscFrames struct {
	mu       sync.Mutex
	contacts map[int32][]shownContact
	links    map[int32]int
	joints   map[int32][]float32
}

func captureOSC(t *testing.T) (string, *oscFrames) {
	t.Helper()
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	o := &oscFrames{contacts: map[int32][]shownContact{}, links: map[int32]int{}, joints: map[int32][]float32{}}
	go func() {
		buf := make([]byte, 1<<16)
		seq := int32(-1)
		for {
			n, err := c.Read(buf)
			if err != nil {
				return
			}
			p, err := goosc.ParsePacket(string(buf[:n]))
			b, ok := p.(*goosc.Bundle)
			if err != nil || !ok {
				continue
			}
			o.mu.Lock()
			for _, m := range b.Messages {
				switch m.Address {
				case "/gloved/right/frame":
					seq = m.Arguments[0].(int32)
					o.contacts[seq] = []shownContact{}
				case "/gloved/right/links":
					o.links[seq] = len(m.Arguments) / 7
				case "/gloved/right/joints":
					q := make([]float32, len(m.Arguments))
					for i, a := range m.Arguments {
						q[i] = a.(float32)
					}
					o.joints[seq] = q
				case "/gloved/right/contact":
					o.contacts[seq] = append(o.contacts[seq], shownContact{Link: m.Arguments[0].(string), Object: m.Arguments[1].(string), Depth: m.Arguments[2].(float32)})
				}
			}
			o.mu.Unlock()
		}
	}()
	return c.LocalAddr().String(), o
}

// startRun runs `gloved run` with config text and returns the live page's
// address, read from its log.
func startRun(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gloved.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, binary(t), "run", "-c", path, "--status=false", "--for", "120s")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`"view":"(http://[^"]+)"`)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case url := <-found:
		return url
	case <-time.After(30 * time.Second):
		t.Fatal("gloved run did not log its page's address within 30 s")
	}
	return ""
}

// demoConfig is the shipped demo sending OSC to target, its control and
// page ports free ones.
func demoConfig(t *testing.T, target string) string {
	t.Helper()
	demo, err := configs.Files.ReadFile("demo.toml")
	if err != nil {
		t.Fatal(err)
	}
	return strings.NewReplacer(`targets = ["127.0.0.1:9430"]`, fmt.Sprintf(`targets = [%q]`, target),
		`listen = "127.0.0.1:9431"`, fmt.Sprintf(`listen = %q`, freeUDP(t)),
		`listen = "127.0.0.1:8080"`, `listen = "127.0.0.1:0"`).Replace(string(demo))
}

// TestLivePageShowsWhatTheDaemonSent: the shipped demo, served on a page
// that headless Chromium opens. Paused at a frame with contacts, the page
// shows the hand's 16 links, the scene's objects, and, as arrows, exactly
// the contacts the daemon sent on OSC in that frame.
func TestLivePageShowsWhatTheDaemonSent(t *testing.T) {
	t.Parallel()
	b := chromium(t)
	target, wire := captureOSC(t)
	url := startRun(t, demoConfig(t, target))
	openPaused(t, b, url, "gloved.arrows > 0")
	st := readState(t, b)
	scene, err := session.LoadScene(session.ScenePaths("builtin:grasp"), "")
	if err != nil {
		t.Fatal(err)
	}
	if st.SceneObjects != len(scene.Objects) || strings.Join(st.Scene.Objects, ",") != strings.Join(scene.Objects, ",") {
		t.Errorf("the page draws %d objects %v, the daemon's scene has %v", st.SceneObjects, st.Scene.Objects, scene.Objects)
	}
	h := st.Hands[0]
	wire.mu.Lock()
	sent, ok := wire.contacts[h.Seq]
	links := wire.links[h.Seq]
	wire.mu.Unlock()
	if !ok {
		t.Fatalf("the page shows frame %d, which never came over OSC", h.Seq)
	}
	if len(st.HandLinks) != 1 || st.HandLinks[0] != links || links != 16 {
		t.Errorf("the page draws hands of %v links; OSC frame %d carried %d link poses, want 16", st.HandLinks, h.Seq, links)
	}
	if !sameContacts(h.Contacts, sent) || st.Arrows != len(sent) {
		t.Errorf("frame %d: the page shows %d arrows %v; OSC sent %v", h.Seq, st.Arrows, h.Contacts, sent)
	}
	if len(sent) == 0 || h.Status != "streaming" {
		t.Errorf("frame %d: %d contacts, status %q; want the grasp touching the ball, streaming", h.Seq, len(sent), h.Status)
	}
	keepScreenshot(t, b, "view-demo.png")
}

// TestLivePageDrawsTheSkinnedHand: with mesh = the WebXR hand, the page
// draws the skin (its vertices, triangles and bones), moved by the links
// each frame carries: at a paused frame every drawn vertex is, in the
// palm's frame, where the hand model's own skinning puts it for the joint
// angles OSC sent in that frame, to 50 µm (float32 on the wire and in the
// GPU's matrices).
func TestLivePageDrawsTheSkinnedHand(t *testing.T) {
	t.Parallel()
	b := chromium(t)
	target, wire := captureOSC(t)
	mesh, err := filepath.Abs(webxrRight)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(demoConfig(t, target), `motion = "grasp"`, fmt.Sprintf("motion = \"grasp\"\nmesh = %q", mesh), 1)
	url := startRun(t, text)
	openPaused(t, b, url, "gloved.skins[0]")
	hand, err := handmodel.New(handmodel.Params{Right: true, Mesh: mesh})
	if err != nil {
		t.Fatal(err)
	}
	rig := hand.Rig()
	var page struct {
		Seq   int32
		Skin  struct{ Vertices, Triangles, Bones int }
		Palm  []float64 // the palm's pose as the frame carried it
		Verts [][3]float64
	}
	if err := b.Eval(`(() => {
		const h = gloved.hands[0], f = gloved.latest[0], n = gloved.skins[0].vertices, verts = [];
		for (let v = 0; v < n; v++) verts.push(gloved.skinVertex(0, v));
		return {seq: h.seq, skin: gloved.skins[0], palm: f.links.slice(0, 7), verts};
	})()`, &page); err != nil {
		t.Fatal(err)
	}
	if page.Skin.Vertices != len(rig.Skin.Verts) || page.Skin.Triangles != len(rig.Skin.Tris) || page.Skin.Bones != len(rig.Skin.Joints) {
		t.Fatalf("the page draws a skin of %+v; the WebXR hand has %d vertices, %d triangles, %d joints", page.Skin, len(rig.Skin.Verts), len(rig.Skin.Tris), len(rig.Skin.Joints))
	}
	wire.mu.Lock()
	sent, ok := wire.joints[page.Seq]
	wire.mu.Unlock()
	if !ok || len(sent) != int(handmodel.NumJoints) {
		t.Fatalf("frame %d: OSC carried joints %v", page.Seq, sent)
	}
	var q handmodel.Angles
	for j, a := range sent {
		q[j] = float64(a)
	}
	links := make([]geom.Transform, hand.NumLinks())
	hand.Pose(&q, geom.Identity(), links)
	var posed handmodel.SkinPose
	if err := rig.Pose(&q, links, &posed); err != nil {
		t.Fatal(err)
	}
	p := page.Palm
	pagePalm, _ := geom.FromQuat(mgl64.Quat{W: p[6], V: mgl64.Vec3{p[3], p[4], p[5]}}.Normalize(), geom.Vec3{X: p[0], Y: p[1], Z: p[2]})
	toPage, toModel := pagePalm.Inverse(), links[handmodel.Palm].Inverse()
	worst, at := 0.0, 0
	for v, pv := range page.Verts {
		d := toPage.Apply(geom.FromMgl(pv)).Sub(toModel.Apply(posed.Verts[v])).Len()
		if !(d <= worst) {
			worst, at = d, v
		}
	}
	if worst > 50e-6 {
		t.Errorf("frame %d: skin vertex %d is drawn %.1f µm from where the hand model puts it", page.Seq, at, worst*1e6)
	}
	t.Logf("frame %d: the drawn skin is within %.2f µm of the hand model's", page.Seq, worst*1e6)
	keepScreenshot(t, b, "view-skin.png")
}

// TestTheDemoPageDrawsTheWebXRHand: the shipped demo's hand has no skin
// of its own, and its page draws it as the WebXR generic hand: the file's
// 25 bones, 1,360 vertices and 2,314 triangles, every vertex, at a paused
// frame, where the hand model's own skinning (handmodel.Skin.Pose) puts
// the shipped file's skin with its bones on the OpenXR joints
// (handmodel.XRJoints, the openxr profile's) of the frame's link poses,
// to 50 µm; and on the screen its warm skin covers the palm. One click on
// Show hulls draws the link hulls instead (the page says so, and the
// picture changes where the hand is); the choice is in the address and
// outlives a reload.
func TestTheDemoPageDrawsTheWebXRHand(t *testing.T) {
	t.Parallel()
	b := chromium(t)
	url := startRun(t, demoConfig(t, freeUDP(t)))
	openPaused(t, b, url, "gloved.xrHands[0]")
	glb, err := fs.ReadFile(view.Assets, view.XRHandURL(true))
	if err != nil {
		t.Fatal(err)
	}
	skin, err := handmodel.ReadSkin(glb, nil)
	if err != nil {
		t.Fatal(err)
	}
	var page struct {
		Shown []string
		XR    struct {
			URL, Error                 string
			Bones, Vertices, Triangles int
		}
		Links  []float64
		Verts  [][3]float64
		Palm   [2]float64 // the palm joint on the screen
		Button string
	}
	read := func() {
		t.Helper()
		if err := b.Eval(`(() => {
			const f = gloved.latest[0], n = gloved.xrHands[0].vertices || 0, verts = [];
			for (let v = 0; v < n; v++) verts.push(gloved.skinVertex(0, v));
			return {shown: gloved.shown(), xr: gloved.xrHands[0], links: f.links, verts, button: document.getElementById('hulls').textContent,
				palm: gloved.project(gloved.xrJoint(0, 'palm'))};
		})()`, &page); err != nil {
			t.Fatal(err)
		}
	}
	read()
	if page.XR.Error != "" || page.XR.URL != view.XRHandURL(true) || page.XR.Bones != len(skin.Joints) || page.XR.Vertices != len(skin.Verts) || page.XR.Triangles != len(skin.Tris) {
		t.Fatalf("the page's WebXR hand is %+v; the shipped right hand has %d bones, %d vertices, %d triangles", page.XR, len(skin.Joints), len(skin.Verts), len(skin.Tris))
	}
	if len(page.Shown) != 1 || page.Shown[0] != "webxr" || page.Button != "Show hulls" {
		t.Fatalf("the page shows its hand as %v with its button %q; want webxr, Show hulls", page.Shown, page.Button)
	}
	params := handmodel.DefaultParams
	params.Right = true
	hand, err := handmodel.New(params)
	if err != nil {
		t.Fatal(err)
	}
	places := hand.XRJoints()
	world := make([]mgl64.Mat4, len(skin.Joints))
	for j, name := range skin.Joints {
		x := -1
		for k := range places {
			if handmodel.XRJoint(k).String() == name {
				x = k
			}
		}
		if x < 0 {
			t.Fatalf("the WebXR hand's bone %s is no OpenXR joint", name)
		}
		l := 7 * int(places[x].Link)
		link, err := geom.FromQuat(mgl64.Quat{W: page.Links[l+6], V: mgl64.Vec3{page.Links[l+3], page.Links[l+4], page.Links[l+5]}}, geom.Vec3{X: page.Links[l], Y: page.Links[l+1], Z: page.Links[l+2]})
		if err != nil {
			t.Fatal(err)
		}
		p := places[x].Pose(link)
		world[j] = p.R.Mat4()
		world[j][12], world[j][13], world[j][14] = p.T.X, p.T.Y, p.T.Z
	}
	var posed handmodel.SkinPose
	if err := skin.Pose(world, &posed); err != nil {
		t.Fatal(err)
	}
	worst, at := 0.0, 0
	for v, pv := range page.Verts {
		if d := geom.FromMgl(pv).Sub(posed.Verts[v]).Len(); !(d <= worst) {
			worst, at = d, v
		}
	}
	if worst > 50e-6 {
		t.Errorf("WebXR hand vertex %d is drawn %.1f µm from where the hand model's skinning puts it", at, worst*1e6)
	}
	t.Logf("the drawn WebXR hand is within %.2f µm of the hand model's skinning", worst*1e6)
	_, hand1 := screenshot(t, b)
	if c := pixel(hand1, page.Palm); !(c[0] > c[2]+30 && c[0] > 90) {
		t.Errorf("at the palm, %v on the screen, the page drew %v: not the hand's skin", page.Palm, c)
	}

	if err := b.Eval("document.getElementById('hulls').click()", nil); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	read()
	var address string
	if err := b.Eval("location.search", &address); err != nil {
		t.Fatal(err)
	}
	if page.Shown[0] != "hulls" || page.Button != "Hide hulls" || address != "?hulls=1" {
		t.Errorf("after a click on Show hulls the page shows %v, its button %q, at %q; want hulls, Hide hulls, ?hulls=1", page.Shown, page.Button, address)
	}
	_, hulls := screenshot(t, b)
	if changed := changedNear(hand1, hulls, page.Palm, 120); changed < 0.05 {
		t.Errorf("the hulls changed %.1f%% of the pixels around the hand: the picture is the same", 100*changed)
	}
	keepScreenshot(t, b, "view-hulls.png")
	if err := b.Navigate(url); err != nil {
		t.Fatal(err)
	}
	if err := b.WaitFor("window.gloved && gloved.frames > 2 && gloved.xrHands[0] && gloved.shown()[0] === 'hulls'", 60*time.Second); err != nil {
		t.Errorf("reloaded, the page forgot the hulls were shown: %v", err)
	}
}

// screenshot is the page's picture, as PNG and decoded.
func screenshot(t *testing.T, b *viewtest.Browser) ([]byte, image.Image) {
	t.Helper()
	data, err := b.Screenshot()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	return data, img
}

// pixel is img's colour at p (CSS pixels: the screenshots are at 1:1),
// 8 bits a channel.
func pixel(img image.Image, p [2]float64) [3]uint32 {
	r, g, b, _ := img.At(int(p[0]), int(p[1])).RGBA()
	return [3]uint32{r >> 8, g >> 8, b >> 8}
}

// changedNear is the share of the pixels within r of p that differ by
// more than 24 (of 255) in some channel between a and b.
func changedNear(a, b image.Image, p [2]float64, r int) float64 {
	n, changed := 0, 0
	for y := int(p[1]) - r; y <= int(p[1])+r; y++ {
		for x := int(p[0]) - r; x <= int(p[0])+r; x++ {
			if !(image.Point{x, y}.In(a.Bounds())) {
				continue
			}
			n++
			c, d := pixel(a, [2]float64{float64(x), float64(y)}), pixel(b, [2]float64{float64(x), float64(y)})
			for k := range c {
				if max(c[k], d[k])-min(c[k], d[k]) > 24 {
					changed++
					break
				}
			}
		}
	}
	return float64(changed) / float64(max(n, 1))
}

// TestPageSlidesThroughASession: `gloved contacts --view` serves the
// simulated grasp as a timeline; moving the page's slider shows the frame
// at that time with the contacts contacts --json printed for it.
func TestPageSlidesThroughASession(t *testing.T) {
	t.Parallel()
	b := chromium(t)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, binary(t), "contacts", "--scene", "builtin:grasp", "--sim", "--frames", "300", "--json", "--view", "127.0.0.1:0",
		"--wrist-pose", "0 0.91 0.10 -0.70710678 0 0 0.70710678") // the demo's: palm down over the ball
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	var frames []frameJSON
	out := bufio.NewScanner(stdout)
	for len(frames) < 300 && out.Scan() {
		var f frameJSON
		if err := json.Unmarshal(out.Bytes(), &f); err != nil {
			t.Fatal(err)
		}
		frames = append(frames, f)
	}
	var url string
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if m := regexp.MustCompile(`showing 300 frames at (\S+)`).FindStringSubmatch(sc.Text()); m != nil {
			url = m[1]
			break
		}
	}
	if url == "" || len(frames) != 300 {
		t.Fatalf("contacts --view printed %d frames and did not say where its page is", len(frames))
	}
	if err := b.Navigate(url); err != nil {
		t.Fatal(err)
	}
	if err := b.WaitFor("window.gloved && gloved.scene && gloved.frames > 0 && !document.getElementById('timeline').hidden", 60*time.Second); err != nil {
		t.Fatal(err)
	}
	// Slide to the deepest grasp: the frame with the most contacts (the
	// slider runs 0..1000 over the session's 2.99 s).
	duration := frames[len(frames)-1].T
	want := frames[0]
	for _, f := range frames {
		if len(f.Contacts) > len(want.Contacts) {
			want = f
		}
	}
	pos := int(math.Round(want.T / duration * 1000))
	if err := b.Eval(fmt.Sprintf(`(() => { const s = document.getElementById('slider'); s.value = %d; s.dispatchEvent(new Event('input')); })()`, pos), nil); err != nil {
		t.Fatal(err)
	}
	at := float64(pos) / 1000 * duration
	for _, f := range frames {
		if f.T <= at+1e-9 {
			want = f
		}
	}
	if err := b.WaitFor(fmt.Sprintf("gloved.hands[0] && Math.abs(gloved.hands[0].t - %v) < 1e-6", want.T), 20*time.Second); err != nil {
		t.Fatal(err)
	}
	st := readState(t, b)
	var sent []shownContact
	for _, c := range want.Contacts {
		sent = append(sent, shownContact{Link: c.Link, Object: c.Object, Depth: float32(c.Depth)})
	}
	if !sameContacts(st.Hands[0].Contacts, sent) {
		t.Errorf("at %.3f s the page shows %v; contacts --json says %v", want.T, st.Hands[0].Contacts, sent)
	}
	if len(sent) == 0 {
		t.Errorf("frame at %.3f s has no contacts: the grasp never touched", want.T)
	}
	if st.Hands[0].Status != "streaming" || st.HandLinks[0] != 16 {
		t.Errorf("status %q, %d links", st.Hands[0].Status, st.HandLinks[0])
	}
	keepScreenshot(t, b, "view-timeline.png")
}

// TestViewErrorsSayWhatToDo: each way the page cannot be served ends with
// one line naming what failed.
func TestViewErrorsSayWhatToDo(t *testing.T) {
	t.Parallel()
	busy := busyTCP(t)
	handsCfg, err := filepath.Abs("../../configs/handshake.toml")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		says []string
	}{
		{"view port in use", []string{"run", "-c", writeConfig(t, "127.0.0.1:0", "builtin:grasp", fmt.Sprintf("[view]\nlisten = %q\n", busy)), "--status=false", "--for", "3s"}, 1, []string{"view.listen", "in use", "choose a free port"}},
		{"view address malformed", []string{"run", "-c", writeConfig(t, "127.0.0.1:0", "builtin:grasp", "[view]\nlisten = \"8080\"\n"), "--status=false", "--for", "3s"}, 2, []string{"view.listen", "host:port"}},
		{"--view port in use", []string{"run", "-c", writeConfig(t, "127.0.0.1:0", "builtin:grasp", ""), "--view", busy, "--status=false", "--for", "3s"}, 1, []string{"view.listen", "in use"}},
		{"contacts --view port in use", []string{"contacts", "--scene", "builtin:grasp", "--sim", "--frames", "5", "--view", busy}, 1, []string{"--view", "in use"}},
		{"contacts --view with --hands", []string{"contacts", "--hands", handsCfg, "--view", "127.0.0.1:0"}, 2, []string{"--view", "--hands"}},
		{"replay --view port in use", []string{"replay", "../../testdata/recordings/grasp.glove", "--speed", "max", "--target", freeUDP(t), "--view", busy}, 1, []string{"--view", "in use"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runBinary(t, 30*time.Second, tc.args...)
			r.oneLine(t, tc.code, tc.says...)
		})
	}
}

// TestReplayViewKeepsTheRecordingUp: `gloved replay --view` shows the
// replay live, and once it has ended keeps the page up with the whole
// recording on its slider.
func TestReplayViewKeepsTheRecordingUp(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary(t), "replay", "../../testdata/recordings/grasp.glove", "--speed", "max", "--target", freeUDP(t), "--view", "127.0.0.1:0")
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); cmd.Wait() }()
	var lines []string
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if strings.HasPrefix(sc.Text(), "showing the recording at ") {
			break
		}
	}
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "the live page is at http://127.0.0.1:") || !strings.HasPrefix(lines[1], "replayed ") {
		t.Fatalf("replay --view said %q; want the page's address, the replay's summary, then that the page stays", lines)
	}
	url := strings.TrimSuffix(strings.TrimPrefix(lines[2], "showing the recording at "), " (Ctrl-C ends)")
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(url, "http")+"ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	c.SetReadLimit(64 << 20)
	_, data, err := c.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var scene struct {
		Type     string
		Live     bool
		Duration float64
		Title    string
	}
	json.Unmarshal(data, &scene)
	if scene.Type != "scene" || scene.Live || !(scene.Duration > 1) || scene.Title != "grasp.glove" {
		t.Fatalf("after the replay the page gets %+v; want the scene of grasp.glove, no longer live, with its duration", scene)
	}
	c.Write(ctx, websocket.MessageText, []byte(`{"type":"at","t":1.0}`))
	_, data, err = c.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var frame struct {
		Hands []struct {
			T      float64
			Status string
			Links  []float32
		}
	}
	json.Unmarshal(data, &frame)
	if len(frame.Hands) != 1 || math.Abs(frame.Hands[0].T-1) > 0.05 || frame.Hands[0].Status != "replay" || len(frame.Hands[0].Links) != 16*7 {
		t.Errorf("the frame at 1 s: %+v", frame.Hands)
	}
}

// TestExportedGLTFOpensInThreeJS: `gloved export --gltf` of the shipped
// recording, opened by the live page's glTF mode (three.js's GLTFLoader
// and AnimationMixer, as any three.js app would), poses every link as
// the plain export's frames.txt says, at frames across the recording, and
// holds the contact markers.
func TestExportedGLTFOpensInThreeJS(t *testing.T) {
	t.Parallel()
	b := chromium(t)
	dir := t.TempDir()
	scene, rec := "../../testdata/scenes/grasp.obj", "../../testdata/recordings/grasp.glove"
	glb := filepath.Join(dir, "grasp.glb")
	for _, out := range [][]string{{"--gltf", glb}, {"--out", dir}} {
		if r := runBinary(t, 60*time.Second, append([]string{"export", "--scene", scene, "--recording", rec}, out...)...); r.code != 0 {
			t.Fatalf("export %v: exit %d: %s", out, r.code, r.stderr)
		}
	}
	want := framesTxt(t, filepath.Join(dir, "frames.txt"))
	doc, clip := readClip(t, glb)
	times := clip.Times(animation.FindNode(doc, "index3"), gltf.TRSRotation)
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServerFS(view.Assets))
	mux.HandleFunc("/grasp.glb", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, glb) })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	if err := b.Navigate(srv.URL + "/?gltf=/grasp.glb"); err != nil {
		t.Fatal(err)
	}
	if err := b.WaitFor("window.gloved && gloved.gltf && (gloved.gltf.loaded || gloved.gltf.error)", 60*time.Second); err != nil {
		t.Fatal(err)
	}
	var info struct {
		Loaded     bool
		Error      string
		Meshes     int
		Duration   float64
		Animations []struct{ Tracks int }
	}
	b.Eval("JSON.parse(JSON.stringify(gloved.gltf))", &info)
	if !info.Loaded || len(info.Animations) != 1 || math.Abs(info.Duration-times[len(times)-1]) > 1e-6 {
		t.Fatalf("three.js loaded %+v; want one animation lasting %v s", info, times[len(times)-1])
	}
	b.Eval("gloved.pause()", nil)
	names := []string{}
	for l := range 16 {
		names = append(names, doc.Nodes[firstLinkNode(t, doc)+l].Name)
	}
	for _, k := range []int{0, 37, 100, 150, len(want) - 1} {
		for l, x := range want[k] {
			var got struct{ P, Q []float64 }
			if err := b.Eval(fmt.Sprintf("gloved.gltfAt(%v, %q)", times[k], names[l]), &got); err != nil || len(got.P) != 3 {
				t.Fatalf("frame %d link %s: %v %+v", k, names[l], err, got)
			}
			q := mgl64.Quat{W: got.Q[3], V: mgl64.Vec3{got.Q[0], got.Q[1], got.Q[2]}}
			r := q.Mat4().Mat3()
			dr := 0.0
			for i := range r {
				dr = max(dr, math.Abs(r[i]-x.R[i]))
			}
			if dt := (geom.Vec3{X: got.P[0], Y: got.P[1], Z: got.P[2]}).Sub(x.T).Len(); dt > 1e-5 || dr > 1e-5 {
				t.Fatalf("frame %d (%.3f s) link %s in three.js: %.3g m and %.3g in rotation from frames.txt", k, times[k], names[l], dt, dr)
			}
		}
	}
	var marker bool
	b.Eval(fmt.Sprintf("gloved.gltfAt(0, %q) !== null", animation.MarkerName(0)), &marker)
	if !marker {
		t.Errorf("three.js has no node %s", animation.MarkerName(0))
	}
	keepScreenshot(t, b, "view-gltf.png")
}
