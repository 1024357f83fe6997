package daemon

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"
	goosc "github.com/hypebeast/go-osc/osc"
	"github.com/rs/zerolog"

	"github.com/gloved/gloved/daemon/daemontest"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/internal/readmetest"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/openxr"
	"github.com/gloved/gloved/osc/osctest"
	"github.com/gloved/gloved/osc/vmc"
	"github.com/gloved/gloved/osc/vrchat"
)

// goldenProfiles are the profiles of the golden replay, in its
// [[osc.profile]] order, by their golden files' names.
var goldenProfiles = []struct {
	file, toml string
	methods    []osc.Method
}{
	{"gloved-unreal", "name = \"gloved\"\ncoords = \"unreal\"", osc.MethodsIn(geom.Unreal)},
	{"openxr", "name = \"openxr\"", openxr.Methods(geom.Gloved)},
	{"vrchat", "name = \"vrchat\"", vrchat.Methods()},
	{"vmc", "name = \"vmc\"", vmc.Methods()},
}

// replayed is one profile's stream of a replay: each frame's packets.
type replayed struct {
	frames [][][]byte
}

// replayProfiles replays the shipped recording at full speed through the
// daemon (`gloved replay`'s wiring, timetags from a fixed epoch) with the
// golden profiles, each also sent to a receiver on a real socket; it
// returns the gloved bundles (osc.targets' stream), each profile's frames
// as the frame loop sent them, and what the receivers got.
func replayProfiles(t *testing.T) ([][][]byte, []replayed, []*daemontest.Packets) {
	t.Helper()
	var text strings.Builder
	text.WriteString(recordedGrasp + sections{scene: graspScene, countTris: true}.String())
	var got []*daemontest.Packets
	for _, p := range goldenProfiles {
		rx, r := daemontest.ListenAny(t)
		got = append(got, r)
		fmt.Fprintf(&text, "[[osc.profile]]\n%s\n%s\n", p.toml, targets(rx.LocalAddr().String()))
	}
	cfg, err := ParseConfig("profiles.toml", []byte(text.String()))
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewAt(cfg, zerolog.Nop(), time.Unix(1_700_000_000, 0))
	if err != nil {
		t.Fatal(err)
	}
	d.exitWhenDone = true
	clone := func(packets [][]byte) [][]byte {
		out := make([][]byte, len(packets))
		for i, p := range packets {
			out[i] = bytes.Clone(p)
		}
		return out
	}
	var gloved [][][]byte
	streams := make([]replayed, len(goldenProfiles))
	d.onFrame = func(_ string, packets [][]byte) { gloved = append(gloved, clone(packets)) }
	d.onOutput = func(profile int, _ string, packets [][]byte) {
		streams[profile].frames = append(streams[profile].frames, clone(packets))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := d.Run(ctx); err != nil {
		t.Fatal(err)
	}
	return gloved, streams, got
}

// decodeAll decodes packets into their messages, and whether each was a
// bundle, and the bundles' timetags.
func decodePackets(t *testing.T, packets [][]byte) []daemontest.Packet {
	t.Helper()
	var out []daemontest.Packet
	for _, pk := range packets {
		p, err := goosc.ParsePacket(string(pk))
		if err != nil {
			t.Fatal(err)
		}
		switch p := p.(type) {
		case *goosc.Bundle:
			out = append(out, daemontest.Packet{Bundle: true, Timetag: p.Timetag.TimeTag(), Messages: p.Messages})
		case *goosc.Message:
			out = append(out, daemontest.Packet{Messages: []*goosc.Message{p}})
		}
	}
	return out
}

// statusOnly reports whether a packet holds statuses alone: sent when the
// wall clock says, it is left out of a golden stream as its statuses are.
func statusOnly(ms []*goosc.Message) bool {
	for _, m := range ms {
		if !strings.HasSuffix(m.Address, "/status") {
			return false
		}
	}
	return len(ms) > 0
}

// frameText writes a frame's packets as text: each bundle's timetag, or
// "message", then each message's address, type tags and arguments (what
// is the wall clock's left out: gloved's frame's pipeline time zeroed,
// its status, sent in a frame when due, left out).
func frameText(t *testing.T, packets [][]byte) string {
	t.Helper()
	var b strings.Builder
	for _, p := range decodePackets(t, packets) {
		if statusOnly(p.Messages) {
			continue // a status of its own, sent when the wall clock says
		}
		if p.Bundle {
			fmt.Fprintf(&b, "bundle %d\n", p.Timetag)
		} else {
			b.WriteString("message\n")
		}
		for _, m := range p.Messages {
			if strings.HasSuffix(m.Address, "/status") {
				continue // in a frame's bundle when due by the wall clock
			}
			if strings.HasSuffix(m.Address, "/frame") && len(m.Arguments) == 3 {
				m.Arguments[1] = float32(0)
			}
			tags, _ := m.TypeTags()
			fmt.Fprintf(&b, "  %s %s %v\n", m.Address, tags, m.Arguments)
		}
	}
	return b.String()
}

// goldenEvery is how often a frame is written out in full in a golden
// file (every frame is in its hash).
const goldenEvery = 20

// golden is a profile's stream as its golden file holds it: the hash of
// every frame's text, then every goldenEvery-th frame (every frame that
// sent anything, for vrchat, which sends at ticks) in full.
func golden(t *testing.T, name string, frames [][][]byte) string {
	t.Helper()
	h := sha256.New()
	var full strings.Builder
	sent, messages := 0, 0
	for i, f := range frames {
		text := frameText(t, f)
		fmt.Fprintf(h, "frame %d\n%s", i, text)
		if len(f) > 0 {
			sent++
		}
		messages += strings.Count(text, "\n  ")
		if len(f) > 0 && (name == "vrchat" || i%goldenEvery == 0) {
			fmt.Fprintf(&full, "frame %d\n%s", i, text)
		}
	}
	return fmt.Sprintf("# The shipped recording (testdata/recordings/grasp.glove) replayed at full speed in the %s profile.\n"+
		"# Every frame's messages hash to the sha256 below; the frames that follow are written out in full.\n"+
		"# Regenerate with go test -run TestProfileStreamsAreGolden -update ./daemon, and review the diff.\n"+
		"sha256 %s\nframes %d, %d of them sending, %d messages\n%s",
		name, hex.EncodeToString(h.Sum(nil)), len(frames), sent, messages, full.String())
}

// TestProfileStreamsAreGolden: the replayed session in each profile
// (gloved's contract in Unreal's coordinates, openxr, vrchat, vmc, all at
// once) is its golden file, address by address, type tags and values;
// every message of every profile is one its contract (Methods) describes,
// each argument of its type and within its range (osc.Method.CheckArgs);
// the gloved stream to osc.targets is as it is without profiles (its
// golden hash); and gloved's contract in Unreal's coordinates is the
// gloved stream carried: every link pose, point and normal, and every
// depth and distance in centimetres.
func TestProfileStreamsAreGolden(t *testing.T) {
	gloved, streams, _ := replayProfiles(t)
	for i, p := range goldenProfiles {
		s := streams[i]
		if len(s.frames) != 201 {
			t.Fatalf("%s: %d frames, the recording holds 201 samples", p.file, len(s.frames))
		}
		contract := map[string]*osc.Method{}
		for k := range p.methods {
			contract[p.methods[k].Address("/gloved", "right")] = &p.methods[k]
		}
		shape := osc.Shape{Joints: int(handmodel.NumJoints), Links: handmodel.FingerLinks}
		for _, f := range s.frames {
			for _, pk := range decodePackets(t, f) {
				for _, m := range pk.Messages {
					c, ok := contract[m.Address]
					if !ok {
						t.Fatalf("%s: %s is not in the profile's contract", p.file, m.Address)
					}
					if err := c.CheckArgs(m.Arguments, shape); err != nil {
						t.Fatalf("%s: %v: %v", p.file, m.Arguments, err)
					}
				}
			}
		}
		want := golden(t, p.file, s.frames)
		path := filepath.Join("testdata", "profiles", p.file+".golden")
		if readmetest.Updating() {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		have, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v: run go test -run TestProfileStreamsAreGolden -update ./daemon to write it", err)
		}
		if string(have) != want {
			t.Errorf("%s: the stream is not its golden file: run go test -run TestProfileStreamsAreGolden -update ./daemon and review the diff.\nfirst difference: %s", p.file, firstDiff(string(have), want))
		}
	}
	h := sha256.New()
	for _, f := range gloved {
		for _, pk := range decodePackets(t, f) {
			if statusOnly(pk.Messages) {
				continue
			}
			fmt.Fprintf(h, "bundle %d\n", pk.Timetag)
			for _, m := range pk.Messages {
				if strings.HasSuffix(m.Address, "/status") {
					continue
				}
				if strings.HasSuffix(m.Address, "/frame") {
					m.Arguments[1] = float32(0)
				}
				fmt.Fprintf(h, "%s %v\n", m.Address, m.Arguments)
			}
		}
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != goldenReplayHash {
		t.Errorf("with the profiles the gloved stream hashes to %s, golden %s", got, goldenReplayHash)
	}
	for i := range gloved {
		carriedInto(t, i, gloved[i], streams[0].frames[i], geom.Unreal)
	}
}

// carriedInto fails t unless converted is frame's gloved messages with every
// position, rotation, normal and length carried into c.
func carriedInto(t *testing.T, i int, frame, converted [][]byte, c geom.Convention) {
	t.Helper()
	var a, b []*goosc.Message
	for _, p := range decodePackets(t, frame) {
		a = append(a, p.Messages...)
	}
	for _, p := range decodePackets(t, converted) {
		b = append(b, p.Messages...)
	}
	if len(a) != len(b) {
		t.Fatalf("frame %d: %d messages, %d in unreal", i, len(a), len(b))
	}
	f := func(m *goosc.Message, k int) float64 { return float64(m.Arguments[k].(float32)) }
	vec := func(m *goosc.Message, k int) mgl64.Vec3 { return mgl64.Vec3{f(m, k), f(m, k+1), f(m, k+2)} }
	near := func(x, y mgl64.Vec3, tol float64) bool { return x.Sub(y).Len() <= tol }
	s := c.Scale()
	for k, m := range a {
		n := b[k]
		ok := m.Address == n.Address
		switch addr := m.Address; {
		case !ok:
		case strings.HasSuffix(addr, "/links"):
			for j := 0; j+7 <= len(m.Arguments); j += 7 {
				q := mgl64.Quat{W: f(m, j+6), V: vec(m, j+3)}
				ok = ok && near(vec(n, j), c.Point(vec(m, j)), 1e-5*s) && c.Quat(q).ApproxEqualThreshold(mgl64.Quat{W: f(n, j+6), V: vec(n, j+3)}, 1e-6)
			}
		case strings.HasSuffix(addr, "/contact"):
			ok = near(vec(n, 3), c.Point(vec(m, 3)), 1e-5*s) && near(vec(n, 6), c.Direction(vec(m, 6)), 1e-6) && abs(f(n, 2)-s*f(m, 2)) <= 1e-6*s
		case strings.HasSuffix(addr, "/near"):
			ok = near(vec(n, 3), c.Point(vec(m, 3)), 1e-5*s) && abs(f(n, 2)-s*f(m, 2)) <= 1e-6*s
		case strings.HasSuffix(addr, "/self"):
			ok = near(vec(n, 3), c.Point(vec(m, 3)), 1e-5*s) && abs(f(n, 2)-s*f(m, 2)) <= 1e-6*s
		case strings.HasSuffix(addr, "/pinch"):
			ok = abs(f(n, 2)-s*f(m, 2)) <= 1e-6*s
		default:
			ok = fmt.Sprint(m.Arguments) == fmt.Sprint(n.Arguments) || strings.HasSuffix(addr, "/frame")
		}
		if !ok {
			t.Fatalf("frame %d: %s %v in gloved's coordinates is %s %v in %s's", i, m.Address, m.Arguments, n.Address, n.Arguments, c.Name())
		}
	}
}

// firstDiff shows where two texts part.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d: golden %q, now %q", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("golden %d lines, now %d", len(la), len(lb))
}

// TestProfilesOnTheWire: the golden replay's profiles as their apps
// receive them on real sockets, statuses too, each message in its
// profile's contract and within its ranges: openxr and vmc as bundles, a frame's
// worth each time, VRChat as bare messages, each parameter at most once a
// tick of 10 a second over the recording's 2 s (21 ticks, counted, not
// timed), its bools typed T or F; each profile's status follows the
// hand's: tracked while the replay plays, and not once it has ended
// (openxr's active, vmc's tracking).
func TestProfilesOnTheWire(t *testing.T) {
	_, streams, got := replayProfiles(t)
	for i, p := range goldenProfiles {
		sent := 0
		for _, f := range streams[i].frames {
			sent += len(f)
		}
		// Everything sent arrives, the statuses too, on loopback.
		if !waitFor(3*time.Second, func() bool { return len(got[i].All()) >= sent }) {
			t.Fatalf("%s: %d of %d packets arrived", p.file, len(got[i].All()), sent)
		}
	}
	shape := osc.Shape{Joints: int(handmodel.NumJoints), Links: handmodel.FingerLinks}
	for i, p := range goldenProfiles {
		contract := map[string]*osc.Method{}
		for k := range p.methods {
			contract[p.methods[k].Address("/gloved", "right")] = &p.methods[k]
		}
		for _, m := range got[i].Messages() {
			if c, ok := contract[m.Address]; !ok {
				t.Errorf("%s: %s received, not in the profile's contract", p.file, m.Address)
			} else if err := c.CheckArgs(m.Arguments, shape); err != nil {
				t.Errorf("%s: %v received: %v", p.file, m.Arguments, err)
			}
		}
	}
	perParam := map[string]int{}
	for _, pk := range got[2].All() {
		if pk.Bundle {
			t.Fatalf("vrchat: a bundle %v", pk.Messages)
		}
		m := pk.Messages[0]
		perParam[m.Address]++
		tags, _ := m.TypeTags()
		if strings.HasSuffix(m.Address, "/touch") || strings.HasSuffix(m.Address, "/pinch") || strings.HasSuffix(m.Address, "/fist") {
			if tags != ",T" && tags != ",F" {
				t.Errorf("vrchat: %s %s: want a bool, T or F", m.Address, tags)
			}
		} else if tags != ",f" {
			t.Errorf("vrchat: %s %s: want a float", m.Address, tags)
		}
	}
	if len(perParam) != 25 {
		t.Errorf("vrchat: %d parameters received, want 25", len(perParam))
	}
	for addr, n := range perParam {
		if n > 21 || n < 2 {
			t.Errorf("vrchat: %s received %d times in 2 s: want at most once a tick (21), at least at the start and a second later", addr, n)
		}
	}
	tracked := func(r *daemontest.Packets, addr string, k int) (on, off bool) {
		for _, m := range r.Messages() {
			if m.Address == addr {
				on = on || m.Arguments[k] == int32(1)
				off = off || m.Arguments[k] == int32(0)
			}
		}
		return on, off
	}
	// The last state on the wire, in a frame's bundle or a status
	// bundle (sent in order: a frame says the state as it is when sent),
	// may still be on its way to the receiver as the daemon stops.
	ended := func(r *daemontest.Packets, addr, want string) bool {
		return waitFor(3*time.Second, func() bool {
			status := ""
			for _, m := range r.Messages() {
				if m.Address == addr {
					status = fmt.Sprint(m.Arguments)
				}
			}
			return status == want
		})
	}
	if on, _ := tracked(got[1], "/gloved/right/xr/active", 0); !on || !ended(got[1], "/gloved/right/xr/active", "[0]") {
		t.Errorf("openxr: active was 1 %v, want it 1 while replaying and the last 0", on)
	}
	if on, _ := tracked(got[3], vmc.AddrOK, 3); !on || !ended(got[3], vmc.AddrOK, "[1 3 0 0]") {
		t.Errorf("vmc: tracking was 1 %v, want it tracked while replaying and the last untracked", on)
	}
	if !ended(got[0], "/gloved/right/status", "[ended]") {
		t.Errorf("gloved in unreal's coordinates: the last status does not say ended")
	}
}

// TestVMCIsOnePerformerForBothHands: two hands send to one VMC
// marionette on a real socket, the right one streaming, the left one's
// glove absent (its status loop says no-glove twice a second): as one
// VMC performer, /VMC/Ext/OK says tracked in every bundle once the right
// hand streams, and /VMC/Ext/T never goes back, across both hands'
// frames and statuses. (Per hand, the absent one's statuses said
// tracking 0 between the other's frames.)
func TestVMCIsOnePerformerForBothHands(t *testing.T) {
	rx, got := daemontest.ListenAny(t)
	other, _ := daemontest.Listen(t)
	_, done, stop := startDaemon(t, 0, "performer.toml", hand("left", "cyberglove", quoted("port", filepath.Join(t.TempDir(), "absent")))+hand("right", "sim")+
		"[hand_contact]\nenabled = false\n"+builtinScene(other.LocalAddr().String())+profileTable("vmc", targets(rx.LocalAddr().String())))
	// Statuses are bundles of OK and T alone; frames add the bones.
	count := func() (frames, statuses int) {
		for _, p := range got.All() {
			if len(p.Messages) == 2 {
				statuses++
			} else {
				frames++
			}
		}
		return frames, statuses
	}
	if !waitFor(10*time.Second, func() bool { f, s := count(); return f >= 50 && s >= 5 }) {
		f, s := count()
		t.Fatalf("%d frames and %d statuses received", f, s)
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	streaming, last := false, float32(0)
	var untracked, back int
	for i, p := range got.All() {
		if !p.Bundle || len(p.Messages) < 2 || p.Messages[0].Address != vmc.AddrOK || p.Messages[1].Address != vmc.AddrTime {
			t.Fatalf("packet %d: %v", i, p.Messages)
		}
		frame := len(p.Messages) > 2
		tracking := p.Messages[0].Arguments[3].(int32)
		streaming = streaming || frame
		if streaming && tracking != 1 {
			untracked++
			t.Logf("packet %d (a frame %v): tracking %d while the right hand streams", i, frame, tracking)
		}
		if tm := p.Messages[1].Arguments[0].(float32); tm < last {
			back++
			t.Logf("packet %d (a frame %v): T %v after %v", i, frame, tm, last)
		} else {
			last = tm
		}
	}
	if untracked > 0 || back > 0 {
		t.Errorf("%d bundles said untracked while a hand streamed, %d went back in time", untracked, back)
	}
}

// sender is a daemon's hand half-way through the recorded grasp, its
// frame built, sending to a socket nobody reads, with the profiles given
// (config text for [[osc.profile]]s, sending to TARGET: a socket of
// their own, as one destination may not get a profile twice), each call a
// frame step later than the last on the sample clock and the wall clock
// alike: what a frame costs from the pipeline's results to the sockets.
func sender(tb testing.TB, profiles string, step time.Duration) func() {
	var rx [2]*net.UDPConn // osc.targets', the profiles'
	for k := range rx {
		c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { c.Close() })
		rx[k] = c
	}
	cfg, err := ParseConfig("bench.toml", []byte(recordedGrasp+sections{scene: graspScene, target: rx[0].LocalAddr().String(), countTris: true}.String()+
		strings.ReplaceAll(profiles, "TARGET", rx[1].LocalAddr().String())))
	if err != nil {
		tb.Fatal(err)
	}
	d, err := NewAt(cfg, zerolog.Nop(), time.Unix(1_700_000_000, 0))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(d.Close)
	h := d.hands[0]
	s := h.session()
	for range 100 {
		if _, err := s.Next(); err != nil {
			tb.Fatal(err)
		}
	}
	h.build(0, 0.05)
	at := d.start.Add(s.Sample.Time)
	n := 0
	send := func() {
		n++
		h.frame.Sample++
		t := at.Add(time.Duration(n) * step)
		d.send(h, t, t)
	}
	send()
	return send
}

// allProfiles are the four profiles at once, gloved's in Unreal's
// coordinates.
var allProfiles = profileTable("gloved", `coords = "unreal"`, targets("TARGET")) + profileTable("openxr", targets("TARGET")) +
	profileTable("vrchat", targets("TARGET")) + profileTable("vmc", targets("TARGET"))

// TestSendAllocatesNothingWithProfiles: sending a frame in gloved's
// contract and in every profile allocates nothing once grown, on every
// path a frame may take: the frames half a second apart, each is a
// vrchat tick (every other one its refresh of every parameter) and each
// carries the hand's status, due, in gloved's bundle and the profiles'
// status bundles. The allocations are counted in all, not averaged
// (osctest.Mallocs).
func TestSendAllocatesNothingWithProfiles(t *testing.T) {
	if n := osctest.Mallocs(200, sender(t, allProfiles, statusEvery)); n != 0 {
		t.Fatalf("%d allocations in 200 frames", n)
	}
}

// BenchmarkSend: a frame from the pipeline's results to the sockets (the
// daemon's osc stage): gloved's bundle alone, as without profiles, and
// with the four profiles besides (their encoding and sending; vrchat's
// ticks one frame in ten at the glove's 100 Hz).
func BenchmarkSend(b *testing.B) {
	for _, bc := range []struct{ name, profiles string }{{"gloved", ""}, {"gloved+profiles", allProfiles}} {
		b.Run(bc.name, func(b *testing.B) {
			send := sender(b, bc.profiles, 10*time.Millisecond)
			b.ReportAllocs()
			for b.Loop() {
				send()
			}
		})
	}
}
