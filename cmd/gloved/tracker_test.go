package main

import (
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"
	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/daemon/daemontest"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/openxr"
	"github.com/gloved/gloved/osc/vmc"
)

// lastJoints returns the joint angles of the hand's last frame received.
func lastJoints(bundles []*goosc.Bundle, hand string) []float32 {
	var out []float32
	for _, b := range bundles {
		for _, m := range b.Messages {
			if m.Address == "/gloved/"+hand+"/joints" {
				out = out[:0]
				for _, a := range m.Arguments {
					out = append(out, a.(float32))
				}
			}
		}
	}
	return out
}

// roundTripTolerance is docs/gloves.md's stated round trip: gloved's
// vmc and openxr output of a pose, fed back in, gives every joint angle
// but the wrist's within 1e-4 rad.
const roundTripTolerance = 1e-4

// posedFrame is the frame gloved's frame loop hands its profiles for the
// default right hand posed at q, its wrist at wrist.
func posedFrame(t *testing.T, q *handmodel.Angles, wrist geom.Transform) (*handmodel.Hand, *osc.Frame) {
	t.Helper()
	h, err := handmodel.New(handmodel.DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	links := make([]geom.Transform, h.NumLinks())
	h.Pose(q, wrist, links)
	f := &osc.Frame{Joints: q[:]}
	for _, x := range links {
		f.Links = append(f.Links, osc.PoseOf(x))
	}
	return h, f
}

// dialTracker is a socket sending to the tracker at to from the address
// from ("" for loopback's).
func dialTracker(t *testing.T, from, to string) *net.UDPConn {
	t.Helper()
	var local *net.UDPAddr
	if from != "" {
		local = &net.UDPAddr{IP: net.ParseIP(from)}
	}
	dst, err := net.ResolveUDPAddr("udp", to)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.DialUDP("udp", local, dst)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// sendPoses sends n datagram sets, 20 ms apart, to the tracker at to from
// the address from ("" for loopback's), each what encode writes.
func sendPoses(t *testing.T, from, to string, n int, encode func(w *osc.Writer)) {
	t.Helper()
	c := dialTracker(t, from, to)
	defer c.Close()
	for range n {
		var w osc.Writer
		encode(&w)
		for _, p := range w.Packets() {
			c.Write(p) // a refused write (nothing listening yet) is a lost pose, as on a real link
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// atPose says whether the hand's last frame has every joint from first
// on within tol of want.
func atPose(want *handmodel.Angles, first handmodel.Joint, tol float64) func([]*goosc.Bundle) bool {
	return func(b []*goosc.Bundle) bool {
		return jointsNear(lastJoints(b, "right"), want, first, tol)
	}
}

// jointsNear says whether q holds every joint angle and those from first
// on are within tol of want.
func jointsNear(q []float32, want *handmodel.Angles, first handmodel.Joint, tol float64) bool {
	if len(q) != int(handmodel.NumJoints) {
		return false
	}
	for j := first; j < handmodel.NumJoints; j++ {
		if math.Abs(float64(q[j])-want[j]) > tol {
			return false
		}
	}
	return true
}

// waitFor polls until ok holds of the bundles received, for up to 10 s.
func waitFor(t *testing.T, got *daemontest.Received, what string, ok func([]*goosc.Bundle) bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !ok(got.All()); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("never %s; statuses %v", what, daemontest.Statuses(got.All(), "right"))
		}
	}
}

// runTrackerHand runs `gloved run` with a right hand of device (vmc or
// osc) listening at listen, its other options lines given, the config
// edited by edit (if any) before the start, and returns the frames
// received once the hand is no-glove, the first status it said.
func runTrackerHand(t *testing.T, device, listen, options string, edit func(cfg string)) *daemontest.Received {
	t.Helper()
	sock, got := daemontest.Listen(t)
	cfg := rightHandConfig(t, fmt.Sprintf("device = %q\n[hand.options]\nlisten = %q\n%s", device, listen, options), "127.0.0.1:0", sock.LocalAddr().String())
	if edit != nil {
		edit(cfg)
	}
	startGloved(t, "gloved", "run", "-c", cfg)
	waitFor(t, got, "no-glove", func(b []*goosc.Bundle) bool {
		return strings.Contains(strings.Join(daemontest.Statuses(b, "right"), " "), "no-glove")
	})
	// Nothing has been heard from the tracker: the hand never said it
	// was streaming before it said there is no glove.
	if s := daemontest.Statuses(got.All(), "right"); s[0] != "no-glove" {
		t.Fatalf("a tracker hand that has heard nothing said %v", s)
	}
	return got
}

// TestAVMCPerformerDrivesTheHandThroughTheBinary: `gloved run` with a
// hand of device = "vmc" on loopback is no-glove until a performer sends;
// the bones gloved's own vmc profile sends for a pose, on a real UDP
// socket, make the hand stream at that pose (every joint but the
// wrist's within 1e-3 rad in its frames); once the performer falls
// silent the hand is stalled, holds the pose for hold_ms, then opens
// flat.
func TestAVMCPerformerDrivesTheHandThroughTheBinary(t *testing.T) {
	t.Parallel()
	listen := freeUDP(t)
	got := runTrackerHand(t, "vmc", listen, "hold_ms = 1500\n", nil)

	want := handmodel.Angles{handmodel.IndexMCP: 1.1, handmodel.IndexPIP: 0.9, handmodel.ThumbRoll: 0.5, handmodel.RingAbduction: -0.1, handmodel.PalmArch: 0.2}
	h, f := posedFrame(t, &want, geom.Identity())
	enc := vmc.NewHand(h, vmc.NewPerformer(time.Now(), 1), 0)
	sendPoses(t, "", listen, 60, func(w *osc.Writer) { enc.Frame(w, f, time.Now()) })
	sent := time.Now() // the last pose was sent by now
	waitFor(t, got, "streaming at the pose", atPose(&want, handmodel.PalmArch, 1e-3))
	waitFor(t, got, "stalled", func(b []*goosc.Bundle) bool {
		s := daemontest.Statuses(b, "right")
		return s[len(s)-1] == "stalled"
	})
	if q := lastJoints(got.All(), "right"); time.Since(sent) < 1400*time.Millisecond && math.Abs(float64(q[handmodel.IndexMCP])-want[handmodel.IndexMCP]) > 1e-3 {
		t.Fatalf("stalled within the hold, the hand at %v", q)
	}
	waitFor(t, got, "open after the hold", func(b []*goosc.Bundle) bool {
		q := lastJoints(b, "right")
		return q[handmodel.IndexMCP] == 0 && q[handmodel.IndexPIP] == 0
	})
	// Frames go out as the glove's samples arrive: the open hand's frame
	// is received no sooner than hold_ms after the last pose (sent up to
	// 20 ms before sent was taken).
	if d := time.Since(sent); d < 1480*time.Millisecond {
		t.Fatalf("the hand opened %v after the last pose, within hold_ms", d)
	}
	if s := strings.Join(daemontest.Statuses(got.All(), "right"), " "); !strings.Contains(s, "no-glove streaming") {
		t.Fatalf("statuses %s", s)
	}
}

// TestGlovedsJointsAndOpenXRJointsDriveAnOSCHandThroughTheBinary:
// `gloved run` with a hand of device = "osc" (prefix, hand name and
// coords its own) follows, on real UDP, another gloved's joints message
// (every joint, the wrist's too, to float32's precision), then the
// openxr profile's 26 joints of another pose, in Unity's coordinates,
// the wrist turned and placed anywhere (every joint but the wrist's
// within the documented round-trip tolerance).
func TestGlovedsJointsAndOpenXRJointsDriveAnOSCHandThroughTheBinary(t *testing.T) {
	t.Parallel()
	listen := freeUDP(t)
	got := runTrackerHand(t, "osc", listen, "prefix = \"/lab\"\nhand = \"r\"\ncoords = \"unity\"\n", nil)

	joints := handmodel.Angles{handmodel.WristPitch: -0.3, handmodel.WristYaw: 0.2, handmodel.IndexMCP: 0.8, handmodel.MiddlePIP: 1.2, handmodel.ThumbMCP: 0.4, handmodel.LittleAbduction: 0.15}
	_, f := posedFrame(t, &joints, geom.Identity())
	addr := osc.HandAddresses("/lab", "r")
	sendPoses(t, "", listen, 30, func(w *osc.Writer) {
		w.Begin(osc.Timetag(time.Now()))
		osc.AppendFrame(w, addr, f)
	})
	waitFor(t, got, "at the joints sent", atPose(&joints, 0, 1e-6))

	xr := handmodel.Angles{handmodel.PalmArch: 0.25, handmodel.IndexMCP: 1.3, handmodel.IndexDIP: 0.6, handmodel.RingMCP: 0.9, handmodel.ThumbRoll: 0.7, handmodel.MiddleAbduction: -0.1}
	wrist, err := geom.FromQuat(mgl64.AnglesToQuat(0.3, -1.1, 0.6, mgl64.XYZ), geom.Vec3{X: 0.4, Y: 1.2, Z: -0.5})
	if err != nil {
		t.Fatal(err)
	}
	h, f := posedFrame(t, &xr, wrist)
	enc := openxr.NewHand(h, "/lab", "r", geom.Unity)
	sendPoses(t, "", listen, 30, func(w *osc.Writer) { enc.Frame(w, f, time.Now()) })
	waitFor(t, got, "at the OpenXR joints' pose", atPose(&xr, handmodel.PalmArch, roundTripTolerance))
}

// TestAStrangerNeverDrivesATrackerHandAndIsCounted, on a network
// (192.0.2.1 to .3 on a private namespace's loopback): a tracker hand
// listening beyond loopback, osc.allow naming 192.0.2.2, takes no pose
// from 192.0.2.3 (the hand stays no-glove, each datagram counted in
// gloved_serial_denied_total), and follows 192.0.2.2's, which are not
// counted.
func TestAStrangerNeverDrivesATrackerHandAndIsCounted(t *testing.T) {
	t.Parallel()
	if !inNamespace(t) {
		return
	}
	addToLoopback(t, "192.0.2.1/32", "192.0.2.2/32", "192.0.2.3/32")
	_, port, _ := net.SplitHostPort(freeUDP(t))
	listen := net.JoinHostPort("192.0.2.1", port)
	metrics := freePortTCP(t)
	got := runTrackerHand(t, "osc", listen, "", func(cfg string) {
		allowInConfig(t, cfg, "192.0.2.2")
		appendMetrics(t, cfg, metrics)
	})

	want := handmodel.Angles{handmodel.IndexMCP: 1.0, handmodel.MiddleMCP: 1.0, handmodel.ThumbMCP: 0.3}
	_, f := posedFrame(t, &want, geom.Identity())
	joints := func(w *osc.Writer) {
		w.Begin(osc.Timetag(time.Now()))
		osc.AppendFrame(w, osc.HandAddresses("/gloved", "right"), f)
	}
	const strangers = 25
	sendPoses(t, "192.0.2.3", listen, strangers, joints)
	for deadline := time.Now().Add(10 * time.Second); deniedCount(t, metrics) < strangers; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d strangers' datagrams counted denied", deniedCount(t, metrics), strangers)
		}
	}
	// The hand's first status, before its device is read, is streaming
	// (as any glove's): what counts is that none follows no-glove.
	if s := daemontest.Statuses(got.All(), "right"); slices.Contains(s[slices.Index(s, "no-glove"):], "streaming") {
		t.Fatalf("a stranger's poses gave statuses %v", s)
	}
	if q := lastJoints(got.All(), "right"); jointsNear(q, &want, 0, 1e-3) {
		t.Fatalf("a stranger's pose reached the hand: %v", q)
	}

	sendPoses(t, "192.0.2.2", listen, 25, joints)
	waitFor(t, got, "at the allowed host's pose", atPose(&want, 0, 1e-6))
	if n := deniedCount(t, metrics); n != strangers {
		t.Fatalf("gloved_serial_denied_total %d, want %d: the allowed host's datagrams counted", n, strangers)
	}
}

// allowInConfig sets osc.allow to hosts in the config at path, as
// rightHandConfig writes it.
func allowInConfig(t *testing.T, path string, hosts ...string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	allow := fmt.Sprintf("[osc]\nallow = [\"%s\"]\n", strings.Join(hosts, `", "`))
	text := strings.Replace(string(b), "[osc]\n", allow, 1)
	if text == string(b) {
		t.Fatalf("no [osc] table in %s", path)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// deniedCount is the daemon's gloved_serial_denied_total, scraped at
// addr.
func deniedCount(t *testing.T, addr string) int {
	t.Helper()
	m := regexp.MustCompile(`(?m)^gloved_serial_denied_total (\d+)$`).FindSubmatch(scrape(t, addr))
	if m == nil {
		t.Fatalf("no gloved_serial_denied_total in the metrics")
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

// TestATrackerSessionRecordedReplaysItsJointAnglesWithoutTheNetwork:
// `gloved record --device vmc` records a performer's two poses sent on
// real UDP until Ctrl-C; `gloved replay` of the file, with the
// performer's port taken by another socket, sends every frame at one of
// the two poses (every joint but the wrist's within the round-trip
// tolerance), each of them; and with loopback down, in a private
// namespace, `gloved contacts` still runs the recording.
func TestATrackerSessionRecordedReplaysItsJointAnglesWithoutTheNetwork(t *testing.T) {
	t.Parallel()
	if !inNamespace(t) {
		return
	}
	listen := freeUDP(t)
	rec := filepath.Join(t.TempDir(), "tracker.glr")
	p := startGloved(t, "gloved record", "record", "--device", "vmc", "--option", "listen="+listen, "--option", "hold_ms=-1", "--seconds", "60", "-o", rec)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		c, err := net.ListenPacket("udp", listen)
		if err != nil {
			break // gloved record listens
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatalf("gloved record never listened at %s: %s", listen, p.errs.String())
		}
	}
	a := handmodel.Angles{handmodel.IndexMCP: 1.2, handmodel.IndexPIP: 1.0, handmodel.MiddleMCP: 0.6, handmodel.ThumbRoll: 0.4}
	b := handmodel.Angles{handmodel.PalmArch: 0.3, handmodel.RingMCP: 1.1, handmodel.LittlePIP: 0.9, handmodel.ThumbMCP: 0.5, handmodel.IndexAbduction: -0.15}
	for _, q := range []*handmodel.Angles{&a, &b} {
		h, f := posedFrame(t, q, geom.Identity())
		enc := vmc.NewHand(h, vmc.NewPerformer(time.Now(), 1), 0)
		sendPoses(t, "", listen, 25, func(w *osc.Writer) { enc.Frame(w, f, time.Now()) })
	}
	p.cmd.Process.Signal(os.Interrupt)
	// A tracker has no sensors: the summary says what it recorded, and
	// its faults in words (it printed a Go struct).
	if code := p.exit(t); code != 0 || !strings.Contains(p.out.String(), "interrupted after") || !strings.Contains(p.out.String(), "(right hand, joint angles)") {
		t.Fatalf("gloved record exit %d: %s%s", code, p.out.String(), p.errs.String())
	}
	if out := p.out.String(); !strings.Contains(out, "; faults: ") || strings.ContainsAny(out, "{}") {
		t.Errorf("gloved record's summary does not say its faults in words: %s", out)
	}

	held, err := net.ListenPacket("udp", listen) // a replay opens no socket of the tracker's
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	sock, got := daemontest.Listen(t)
	if r := runBinary(t, 30*time.Second, "replay", rec, "--speed", "max", "--target", sock.LocalAddr().String()); r.code != 0 {
		t.Fatalf("gloved replay exit %d: %s", r.code, r.stderr)
	}
	var atA, atB int
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		atA, atB = 0, 0
		for _, bundle := range got.All() {
			q := lastJoints([]*goosc.Bundle{bundle}, "right")
			switch {
			case q == nil:
			case jointsNear(q, &a, handmodel.PalmArch, roundTripTolerance):
				atA++
			case jointsNear(q, &b, handmodel.PalmArch, roundTripTolerance):
				atB++
			default:
				t.Fatalf("a replayed frame at %v: neither pose recorded", q)
			}
		}
		if atA > 0 && atB > 0 || time.Now().After(deadline) {
			break
		}
	}
	if atA == 0 || atB == 0 {
		t.Fatalf("replayed %d frames at the first pose, %d at the second", atA, atB)
	}

	t.Logf("replayed %d frames at the first pose, %d at the second", atA, atB)
	if out, err := exec.Command("ip", "link", "set", "lo", "down").CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	r := runBinary(t, 30*time.Second, "contacts", "--scene", "builtin:grasp", "--recording", rec)
	if frames := strings.Count(r.stdout, "\nframe ") + 1; r.code != 0 || frames < atA+atB {
		t.Fatalf("gloved contacts without a network: exit %d, %d frames for %d replayed: %s", r.code, frames, atA+atB, r.stderr)
	}
}

// TestATrackerSendingOnlyRefusedPosesIsDegradedNotStalled: a tracker
// hand whose tracker goes on sending, but only joints out of range, says
// degraded (it is not silent: what it sends is refused, and counted), not
// stalled; once the tracker falls silent, stalled.
func TestATrackerSendingOnlyRefusedPosesIsDegradedNotStalled(t *testing.T) {
	t.Parallel()
	listen := freeUDP(t)
	got := runTrackerHand(t, "osc", listen, "", nil)
	pose := func(q handmodel.Angles) func(w *osc.Writer) {
		_, f := posedFrame(t, &q, geom.Identity())
		return func(w *osc.Writer) {
			w.Begin(osc.Timetag(time.Now()))
			osc.AppendFrame(w, osc.HandAddresses("/gloved", "right"), f)
		}
	}
	good := handmodel.Angles{handmodel.IndexMCP: 0.5}
	sendPoses(t, "", listen, 20, pose(good))
	waitFor(t, got, "at the pose sent", atPose(&good, 0, 1e-6))
	statusesSince := func(from int) []string {
		s := daemontest.Statuses(got.All(), "right")
		return s[min(from, len(s)):]
	}
	from := len(daemontest.Statuses(got.All(), "right"))
	sendPoses(t, "", listen, 60, pose(handmodel.Angles{handmodel.IndexMCP: 100})) // 1.2 s of refused poses
	if s := statusesSince(from); !slices.Contains(s, "degraded") || slices.Contains(s, "stalled") {
		t.Fatalf("while sending only refused poses the hand said %v; want degraded, never stalled", s)
	}
	waitFor(t, got, "stalled once silent", func([]*goosc.Bundle) bool { return slices.Contains(statusesSince(from), "stalled") })
}
