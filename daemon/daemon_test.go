package daemon

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"
	"github.com/rs/zerolog"

	"github.com/gloved/gloved/daemon/daemontest"
	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/devices/emulator/emulatortest"
	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/session"
)

// TestEndToEndOverAPty: an emulated CyberGlove on a pty (unplugged, then
// hung up and back), the daemon, and an OSC receiver: every message type
// arrives and decodes, frames are in order, touches pair up, the status
// follows the glove, and hostile packets do not stop the daemon.
func TestEndToEndOverAPty(t *testing.T) {
	link := filepath.Join(t.TempDir(), "cyberglove")
	emulatortest.Start(t, emulator.Opts{Sensors: 22, Right: true,
		Source:   func(t time.Duration, s *[layout.Slots]uint16) { sim.Raw(sim.Grasp, t+time.Second, s) },
		UnplugAt: 1200 * time.Millisecond, UnplugFor: 400 * time.Millisecond}, link,
		emulator.Hangup{At: 2200 * time.Millisecond, For: 400 * time.Millisecond})
	rx, got := daemontest.Listen(t)
	d, done, _ := startDaemon(t, 3800*time.Millisecond, "e2e.toml",
		hand("right", "cyberglove", quoted("port", link), demoWrist)+sections{scene: graspScene, target: rx.LocalAddr().String()}.String())
	// Hostile input while it runs.
	time.Sleep(500 * time.Millisecond)
	hostile, _ := net.Dial("udp", d.hub.Addr().String())
	r := rand.New(rand.NewPCG(91, 91))
	for k := range 300 {
		b := make([]byte, r.IntN(200))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		hostile.Write(b)
		if k%20 == 19 {
			time.Sleep(time.Millisecond) // UDP drops what overflows the socket
		}
	}
	hostile.Write([]byte("/foo[\x00\x00\x00,i\x00\x00\x00\x00\x00\x01"))
	hostile.Close()
	before := len(got.All())
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	bundles := got.All()
	statuses := map[string]bool{}
	lastSeq, lastSample := int32(-1), int32(-1)
	frames, contacts := 0, 0
	open := map[string]int{}
	var lastTT uint64
	for _, b := range bundles {
		for _, m := range b.Messages {
			switch {
			case strings.HasSuffix(m.Address, "/frame"):
				seq := m.Arguments[0].(int32)
				if seq <= lastSeq {
					t.Fatalf("frame %d after %d", seq, lastSeq)
				}
				if b.Timetag.TimeTag() < lastTT {
					t.Fatalf("frame %d: timetag went back", seq)
				}
				lastSeq, lastTT = seq, b.Timetag.TimeTag()
				frames++
			case strings.HasSuffix(m.Address, "/sample"):
				// The glove's own count goes on through the unplugging and
				// the hangup: one stream, reconnected.
				if tags, _ := m.TypeTags(); tags != ",i" || m.Arguments[0].(int32) <= lastSample {
					t.Fatalf("sample %v %s after %d", m.Arguments, tags, lastSample)
				}
				lastSample = m.Arguments[0].(int32)
			case strings.HasSuffix(m.Address, "/joints"):
				if len(m.Arguments) != 23 {
					t.Fatalf("joints with %d values", len(m.Arguments))
				}
			case strings.HasSuffix(m.Address, "/links"):
				if len(m.Arguments) != 16*7 {
					t.Fatalf("links with %d values", len(m.Arguments))
				}
			case strings.HasSuffix(m.Address, "/contact"):
				if tags, _ := m.TypeTags(); tags != ",ssfffffff" {
					t.Fatalf("contact tags %s", tags)
				}
				contacts++
			case strings.HasSuffix(m.Address, "/touch"):
				key := m.Arguments[0].(string) + "/" + m.Arguments[1].(string)
				if m.Arguments[2].(int32) == 1 {
					open[key]++
				} else {
					open[key]--
				}
				if open[key] < 0 || open[key] > 1 {
					t.Fatalf("touch %s begins and ends out of pairs", key)
				}
			case strings.HasSuffix(m.Address, "/status"):
				statuses[m.Arguments[0].(string)] = true
			case strings.HasSuffix(m.Address, "/self"):
				if tags, _ := m.TypeTags(); tags != ",ssffff" {
					t.Fatalf("self tags %s", tags)
				}
			case strings.HasSuffix(m.Address, "/pinch"):
				if tags, _ := m.TypeTags(); tags != ",sif" {
					t.Fatalf("pinch tags %s", tags)
				}
			case strings.HasSuffix(m.Address, "/fist"):
				if tags, _ := m.TypeTags(); tags != ",if" {
					t.Fatalf("fist tags %s", tags)
				}
			case strings.HasSuffix(m.Address, "/rate"):
				if r, ok := m.Arguments[0].(float32); !ok || r <= 0 || r > 1000 {
					t.Fatalf("rate %v", m.Arguments)
				}
			case strings.HasSuffix(m.Address, "/near"):
			default:
				t.Fatalf("unexpected message %s", m.Address)
			}
		}
	}
	if frames < 80 || contacts == 0 {
		t.Fatalf("%d frames and %d contacts received", frames, contacts)
	}
	for _, s := range []string{StatusStreaming, StatusNoGlove, StatusReconnecting} {
		if !statuses[s] {
			t.Errorf("status %q never sent (saw %v)", s, statuses)
		}
	}
	if len(bundles) < before+50 {
		t.Errorf("only %d bundles after the hostile packets (%d before)", len(bundles)-before, before)
	}
	if d.hub.Stats.Malformed.Load() < 50 {
		t.Errorf("hostile packets uncounted: %d", d.hub.Stats.Malformed.Load())
	}
	t.Logf("%d bundles, %d frames, %d contacts, statuses %v, malformed %d", len(bundles), frames, contacts, statuses, d.hub.Stats.Malformed.Load())
}

// TestReplayLoopsAndShutsDownCleanly: a looping replay hand, a sim hand
// recording its session, a status reader running alongside; on cancel the
// daemon returns and the recording is complete and readable.
func TestReplayLoopsAndShutsDownCleanly(t *testing.T) {
	rx, got := daemontest.Listen(t)
	rec := filepath.Join(t.TempDir(), "left.glove")
	runFor := 2500 * time.Millisecond
	if raceEnabled {
		runFor = 4 * time.Second // the race detector slows the frames several times
	}
	d, done, _ := startDaemon(t, runFor, "two.toml", hand("right", "replay", graspRecording, "loop = true", demoWrist)+
		hand("left", "sim", `side = "left"`, `motion = "pinch"`, quoted("recording", rec))+sections{scene: graspScene, target: rx.LocalAddr().String()}.String())
	for range 20 {
		time.Sleep(100 * time.Millisecond)
		d.Snapshot()
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	hands := map[string]int{}
	for _, b := range got.All() {
		for _, m := range b.Messages {
			if strings.HasSuffix(m.Address, "/frame") {
				hands[strings.Split(m.Address, "/")[2]]++
			}
		}
	}
	// The shipped recording is 2 s long (201 samples): a loop shows as
	// more than 200 replayed frames.
	if hands["right"] < 200 || hands["left"] < 150 {
		t.Fatalf("frames per hand %v", hands)
	}
	if n, h := recorded(t, rec); n < 150 || h.Hand != "left" {
		t.Fatalf("recording: %d samples, header %+v", n, h)
	}
}

// goldenReplayHash is the hash of the OSC stream of
// testdata/recordings/grasp.glove replayed at full speed over the built-in
// scene (status messages left out, as their timing is the wall clock's,
// and the frame's pipeline milliseconds zeroed).
//
// Changed once, deliberately: the EPA contact-point fix (narrow,
// TestContactPointsFaceEachOther) moved 11 contact points of the old
// stream, each one where an edge of a finger crosses an edge of the ball
// and the old points did not face each other (off Depth·Normal by up to
// 13 mm); every depth and normal is as before. The layout change before it
// left the old hash (99f98f08…) intact.
//
// Changed a second time, deliberately: the right hand had been built as a
// left hand's mirror image (thumb at +X with the palm at -Z; see
// handmodel.TestRightThumbIsOnTheLeft). The same 201 frames touch with the
// same links, 762 contacts as before; the poses and points are mirrored.
// The hash before was 01f5f7fc….
//
// Changed a third time, deliberately: self-contact runs by default now
// that it meets its frame budget. The same 201 frames carry the same 762
// scene contacts (the stream with [self] enabled = false still hashes to
// 00201c63…); added are 548 /self messages (the recorded grasp presses
// neighbouring fingers together) and 4 /pinch events.
//
// Changed a fourth time, deliberately (issue 15, wire quality): each
// frame's /frame is followed by /sample with the sample's number (0 to
// 200), and each link's quaternion is kept in the hemisphere of its
// previous one, starting with qw >= 0 (geom.QuatTrack). Compared message
// by message with the stream before: every other message is identical,
// every position identical, and 2622 of the 3216 link quaternions are
// negated (the same rotations; the old ones changed hemisphere 11 times
// in the pass); two frames grown past 1400 bytes by /sample now take two
// bundles of the same timetag. The hashes before were 03c74d21… and,
// without self-contact, 00201c63….

const (
	goldenReplayHash       = "10fdd5ee763a723250e9c44ef13a6a6cd1780d89eb97ddeb71f873e6096a7103"
	goldenReplayHashNoSelf = "3adaa686500d3c1779eb7a09417612db1d5c5cf9b00dcb8ffea62a2ea38d30a0"
)

// sentMethods are the methods of the contract gloved sends, by their
// address for hand under prefix.
func sentMethods(prefix, hand string) map[string]*osc.Method {
	out := map[string]*osc.Method{}
	ms := osc.Methods()
	for i := range ms {
		if ms[i].Access == osc.Sent {
			out[ms[i].Address(prefix, hand)] = &ms[i]
		}
	}
	return out
}

// conforms fails t unless m is one of the contract's sent methods, its
// arguments of the method's types and within its ranges for the daemon's
// hand (osc.Method.CheckArgs).
func conforms(t *testing.T, contract map[string]*osc.Method, m *goosc.Message) {
	t.Helper()
	shape := osc.Shape{Joints: int(handmodel.NumJoints), Links: handmodel.FingerLinks}
	c, ok := contract[m.Address]
	if !ok {
		t.Fatalf("%s on the wire is not in the contract (osc.Methods)", m.Address)
	}
	if err := c.CheckArgs(m.Arguments, shape); err != nil {
		t.Fatalf("%v on the wire: %v", m.Arguments, err)
	}
}

// TestReplayOSCStreamIsGolden: the replayed session's stream hashes to
// its golden value, twice, and every message of it is in the contract.
func TestReplayOSCStreamIsGolden(t *testing.T) {
	hash := func(self bool) (string, int) {
		cfg := &Config{
			Hands: []HandConfig{{Name: "right", Spec: session.Spec{Device: "replay", Recording: "../testdata/recordings/grasp.glove", Speed: "max"}}},
			Scene: SceneConfig{Files: []session.SceneFile{{Path: "../testdata/scenes/grasp.obj"}}},
			OSC:   OSCConfig{Listen: "127.0.0.1:0"},
			Frame: FrameConfig{BudgetMS: 1000},
		}
		if !self {
			cfg.Self.Enabled = &self
		}
		if err := cfg.Normalize(); err != nil {
			t.Fatal(err)
		}
		d, err := NewAt(cfg, zerolog.Nop(), time.Unix(1_700_000_000, 0))
		if err != nil {
			t.Fatal(err)
		}
		d.exitWhenDone = true
		h := sha256.New()
		frames := 0
		contract := sentMethods("/gloved", "right")
		d.onFrame = func(_ string, packets [][]byte) {
			for _, pk := range packets {
				p, err := goosc.ParsePacket(string(pk))
				if err != nil {
					t.Errorf("undecodable packet: %v", err)
					return
				}
				b := p.(*goosc.Bundle)
				if len(b.Messages) == 1 && strings.HasSuffix(b.Messages[0].Address, "/status") {
					continue // a status bundle: stamped by the wall clock
				}
				fmt.Fprintf(h, "bundle %d\n", b.Timetag.TimeTag())
				for _, m := range b.Messages {
					conforms(t, contract, m)
					if strings.HasSuffix(m.Address, "/status") {
						continue
					}
					if strings.HasSuffix(m.Address, "/frame") {
						m.Arguments[1] = float32(0)
						frames++
					}
					fmt.Fprintf(h, "%s %v\n", m.Address, m.Arguments)
				}
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := d.Run(ctx); err != nil {
			t.Fatal(err)
		}
		return hex.EncodeToString(h.Sum(nil)), frames
	}
	first, frames := hash(true)
	second, _ := hash(true)
	if frames != 201 {
		t.Fatalf("%d frames replayed, the recording holds 201 samples", frames)
	}
	if first != second {
		t.Fatalf("two replays hash differently: %s, %s", first, second)
	}
	if first != goldenReplayHash {
		t.Fatalf("replay hash %s, golden %s", first, goldenReplayHash)
	}
	// Self-contact only adds messages: without it the stream is the one
	// before it ran by default (with /sample and continuous quaternions).
	if h, _ := hash(false); h != goldenReplayHashNoSelf {
		t.Fatalf("replay hash with [self] enabled = false %s, golden %s", h, goldenReplayHashNoSelf)
	}
}
