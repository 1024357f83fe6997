package osc

import (
	"encoding/binary"
	"fmt"
	"math"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"
	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/geom"
)

// wristCatcher records the wrist poses a hub passes on.
type wristCatcher struct {
	mu    sync.Mutex
	poses []mgl64.Vec3
}

func (w *wristCatcher) on(_ string, p mgl64.Vec3, _ mgl64.Quat) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.poses = append(w.poses, p)
	return true
}

func (w *wristCatcher) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.poses)
}

// logLines collects the hub's log lines.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) log(msg string, kv ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprint(append([]any{msg}, kv...)...))
}

func (l *logLines) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}

func wrist(t *testing.T, x, y, z float32) []byte {
	return packet(t, "/gloved/right/wrist", x, y, z, float32(0), float32(0), float32(0), float32(1))
}

// TestWristOnlyFromAllowedSources: wrist poses from loopback, or from a
// source in osc.allow, move the wrist; from anywhere else they are
// counted and logged at most once a second.
func TestWristOnlyFromAllowedSources(t *testing.T) {
	h, _, clk := testHub(t, Policy{})
	var got wristCatcher
	var logs logLines
	h.OnWrist, h.Log = got.on, logs.log
	h.handle(wrist(t, 0, 1, 0), ap("127.0.0.1:5000"))
	h.handle(wrist(t, 0, 1, 0), ap("[::1]:5000"))
	for range 10 {
		h.handle(wrist(t, 0, 1, 0), ap("192.0.2.7:5000"))
	}
	if got.count() != 2 || h.Stats.Denied.Load() != 10 {
		t.Fatalf("%d poses taken, %d denied; want 2, 10", got.count(), h.Stats.Denied.Load())
	}
	if l := logs.all(); len(l) != 1 || !strings.Contains(l[0], "192.0.2.7") {
		t.Fatalf("log lines %q, want one naming the source", l)
	}
	clk.advance(time.Second)
	h.handle(wrist(t, 0, 1, 0), ap("192.0.2.7:5000"))
	if l := logs.all(); len(l) != 2 || !strings.Contains(l[1], "suppressed") {
		t.Fatalf("log lines %q, want a second one counting those held back", l)
	}
	h.SetPolicy(Policy{Allow: []netip.Prefix{netip.MustParsePrefix("192.0.2.0/28")}})
	h.handle(wrist(t, 0, 1, 0), ap("192.0.2.7:5000"))
	if got.count() != 3 {
		t.Fatalf("a pose from an allowed source was not taken")
	}
}

// TestWristPosesOutsideTheBoxAreRejected: positions outside the
// workspace box (a pose of 5e29 m), non-finite values and zero
// quaternions are counted and dropped.
func TestWristPosesOutsideTheBoxAreRejected(t *testing.T) {
	h, _, _ := testHub(t, Policy{})
	var got wristCatcher
	h.OnWrist = got.on
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	bad := [][]byte{
		wrist(t, 5e29, 0, 0), wrist(t, 0, -5.01, 0), wrist(t, 0, 0, 6), wrist(t, nan, 0, 0), wrist(t, 0, inf, 0),
		packet(t, "/gloved/right/wrist", float32(0), float32(1), float32(0), float32(0), float32(0), float32(0), float32(0)),
		packet(t, "/gloved/right/wrist", float32(0), float32(1), float32(0), float32(0), nan, float32(0), float32(1)),
	}
	for _, b := range bad {
		h.handle(b, ap("127.0.0.1:5000"))
	}
	h.handle(wrist(t, 4.9, -4.9, 0.3), ap("127.0.0.1:5000"))
	if got.count() != 1 || h.Stats.BadPoses.Load() != uint64(len(bad)) {
		t.Fatalf("%d poses taken, %d bad; want 1, %d", got.count(), h.Stats.BadPoses.Load(), len(bad))
	}
	h.SetPolicy(Policy{WristBox: geom.AABB{Min: geom.Vec3{X: -1, Z: -1}, Max: geom.Vec3{X: 1, Y: 2, Z: 1}}})
	h.handle(wrist(t, 0, 1.5, 0), ap("127.0.0.1:5000"))
	h.handle(wrist(t, 0, 2.5, 0), ap("127.0.0.1:5000"))
	if got.count() != 2 {
		t.Fatalf("custom box: %d poses taken, want 2", got.count())
	}
}

// TestBundlesAreTakenWholeOrNotAtAll: a wrist pose at the end of a 60 kB
// bundle is taken and every message before it counted; a bundle with an
// element of size -100 is malformed, and the pose in it is not taken.
func TestBundlesAreTakenWholeOrNotAtAll(t *testing.T) {
	h, _, _ := testHub(t, Policy{})
	var got wristCatcher
	h.OnWrist = got.on
	h.handle(padded(t, 3000, wristMessage(0.5)), ap("127.0.0.1:5000"))
	if got.count() != 1 || h.Stats.Unknown.Load() != 3000 || h.Stats.Malformed.Load() != 0 {
		t.Errorf("60 kB bundle: %d poses taken, %d unknown, %d malformed; want 1, 3000, 0",
			got.count(), h.Stats.Unknown.Load(), h.Stats.Malformed.Load())
	}
	got.poses = nil
	h.Stats.Malformed.Store(0)
	b := bundle(t, wristMessage(0.25))
	binary.BigEndian.PutUint32(b[bundleHeader:], uint32(0xffffff9c)) // -100
	h.handle(b, ap("127.0.0.1:5000"))
	if got.count() != 0 || h.Stats.Malformed.Load() != 1 {
		t.Errorf("element size -100: %d poses taken, %d malformed; want 0, 1", got.count(), h.Stats.Malformed.Load())
	}
}

// TestWristForNoHandIsCounted: a pose OnWrist has no hand for is counted
// as a message to an unknown address, as is any pose when no OnWrist is
// set.
func TestWristForNoHandIsCounted(t *testing.T) {
	h, _, _ := testHub(t, Policy{})
	h.OnWrist = func(hand string, _ mgl64.Vec3, _ mgl64.Quat) bool { return hand == "right" }
	h.handle(wrist(t, 0, 1, 0), ap("127.0.0.1:5000"))
	h.handle(packet(t, "/gloved/lefty/wrist", float32(0), float32(1), float32(0), float32(0), float32(0), float32(0), float32(1)), ap("127.0.0.1:5000"))
	if n := h.Stats.Unknown.Load(); n != 1 {
		t.Fatalf("%d unknown, want 1 (the pose for lefty)", n)
	}
	h.OnWrist = nil
	h.handle(wrist(t, 0, 1, 0), ap("127.0.0.1:5000"))
	if n := h.Stats.Unknown.Load(); n != 2 {
		t.Fatalf("%d unknown, want 2 (a pose with no OnWrist)", n)
	}
}

// TestADatagramMakesAFewRequestsAtMost: a bundle of 100 subscriptions
// (one datagram could hold some 1,800, each an HMAC on the receive path)
// makes maxRequests of them; the rest are refused and counted.
func TestADatagramMakesAFewRequestsAtMost(t *testing.T) {
	h, _, _ := testHub(t, Policy{PerSource: MaxSubscribers})
	var ms []*goosc.Message
	for i := range 100 {
		ms = append(ms, goosc.NewMessage("/gloved/subscribe", "127.0.0.1", int32(20000+i)))
	}
	h.handle(bundle(t, ms...), ap("127.0.0.1:5000"))
	if n, refused := len(h.Subscribers()), h.Stats.Refused.Load(); n != maxRequests || refused != 100-maxRequests {
		t.Errorf("%d subscriptions taken, %d refused; want %d and %d", n, refused, maxRequests, 100-maxRequests)
	}
}
