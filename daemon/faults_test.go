package daemon

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"
	"github.com/rs/zerolog"

	"github.com/gloved/gloved/daemon/daemontest"
	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/devices/emulator/emulatortest"
)

// notifications is a fake systemd: the NOTIFY_SOCKET the daemon writes to,
// with a watchdog of the given timeout, and what arrived when.
type notifications struct {
	mu   sync.Mutex
	msgs []string
	at   []time.Time
}

func fakeSystemd(t *testing.T, watchdog time.Duration) *notifications {
	t.Helper()
	path := filepath.Join(t.TempDir(), "notify")
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	t.Setenv("NOTIFY_SOCKET", path)
	t.Setenv("WATCHDOG_USEC", fmt.Sprint(watchdog.Microseconds()))
	n := &notifications{}
	go func() {
		buf := make([]byte, 512)
		for {
			k, err := c.Read(buf)
			if err != nil {
				return
			}
			n.mu.Lock()
			n.msgs, n.at = append(n.msgs, string(buf[:k])), append(n.at, time.Now())
			n.mu.Unlock()
		}
	}()
	return n
}

// pings returns the watchdog pings received between from and to, and the
// longest gap between consecutive ones (or from the window's edges).
func (n *notifications) pings(from, to time.Time) (count int, gap time.Duration) {
	n.mu.Lock()
	defer n.mu.Unlock()
	last := from
	for i, m := range n.msgs {
		if m != "WATCHDOG=1" || n.at[i].Before(from) || n.at[i].After(to) {
			continue
		}
		count++
		gap = max(gap, n.at[i].Sub(last))
		last = n.at[i]
	}
	return count, max(gap, to.Sub(last))
}

// all returns the notifications other than watchdog pings, in order.
func (n *notifications) all() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []string
	for _, m := range n.msgs {
		if m != "WATCHDOG=1" {
			out = append(out, strings.SplitN(m, "\n", 2)[0])
		}
	}
	return out
}

// sequence reports whether the notifications hold want in order.
func (n *notifications) sequence(want ...string) bool { return daemontest.InOrder(n.all(), want) }

// count counts one notification.
func (n *notifications) count(m string) int {
	k := 0
	for _, x := range n.all() {
		if x == m {
			k++
		}
	}
	return k
}

// waitFor polls cond every 20 ms for up to d.
func waitFor(d time.Duration, cond func() bool) bool {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

// TestGloveAbsentAtStartIsWaitedFor: a daemon whose left glove is not
// plugged in starts anyway, runs its right hand, reports the left one
// no-glove and keeps the watchdog fed; when the glove appears, the left
// hand streams.
func TestGloveAbsentAtStartIsWaitedFor(t *testing.T) {
	const watchdog = 400 * time.Millisecond // pings every 200 ms
	sd := fakeSystemd(t, watchdog)
	link := filepath.Join(t.TempDir(), "left-glove")
	rx, got := daemontest.Listen(t)
	d, done, stop := startDaemon(t, 0, "absent.toml", hand("left", "cyberglove", quoted("port", link))+hand("right", "sim")+builtinScene(rx.LocalAddr().String()))
	start := time.Now() // the daemon is built; Run starts its watchdog loop now
	if !waitFor(3*time.Second, func() bool { return daemontest.Frames(got.All(), "right") > 50 }) {
		t.Fatalf("the right hand ran %d frames while the left glove was absent", daemontest.Frames(got.All(), "right"))
	}
	// Judge the watchdog over several of its periods whatever the
	// machine's speed: the right hand may reach its frames sooner.
	time.Sleep(time.Until(start.Add(5 * watchdog / 2)))
	absentUntil := time.Now()
	if s := daemontest.Statuses(got.All(), "left"); len(s) == 0 || s[len(s)-1] != StatusNoGlove {
		t.Fatalf("left hand statuses %v while its glove is absent, want %s", s, StatusNoGlove)
	}
	if n, gap := sd.pings(start.Add(100*time.Millisecond), absentUntil); n < 2 || gap >= watchdog {
		t.Fatalf("watchdog: %d pings, longest gap %v, while the glove was absent (timeout %v)", n, gap, watchdog)
	}
	emulatortest.Start(t, emulator.Opts{Sensors: 22, Right: false}, link, emulator.Hangup{})
	if !waitFor(5*time.Second, func() bool { return daemontest.Frames(got.All(), "left") > 20 }) {
		t.Fatalf("left hand: %d frames after its glove appeared; statuses %v", daemontest.Frames(got.All(), "left"), daemontest.Statuses(got.All(), "left"))
	}
	if s := daemontest.Statuses(got.All(), "left"); s[len(s)-1] != StatusStreaming {
		t.Errorf("left statuses %v, want to end streaming", s)
	}
	if d.hands[0].Stats.DeviceErrors.Load() == 0 || d.hands[0].Stats.OpenFailures.Load() == 0 {
		t.Error("the failed opens were not counted as device errors and open failures")
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestLoopingReplayAtMaxSpeedStaysFast: every pass of a looping replay at
// speed "max" runs as fast as frames go (it used to fall back to real time
// after the first pass: 100 frames a second).
func TestLoopingReplayAtMaxSpeedStaysFast(t *testing.T) {
	rx, got := daemontest.Listen(t)
	_, done, stop := startDaemon(t, 0, "loop.toml", loopingGrasp+builtinScene(rx.LocalAddr().String()))
	// Three passes of the 2-second recording in 3 s from its first frame
	// (five or more on an idle machine; the race detector on a loaded one
	// gave 982 frames with the scene's preparation in the 3 s): real
	// time would give one and a half.
	if !waitFor(20*time.Second, func() bool { return daemontest.Frames(got.All(), "right") > 0 }) {
		t.Fatal("no frame from the looping replay")
	}
	if !waitFor(3*time.Second, func() bool { return daemontest.Frames(got.All(), "right") > 3*201 }) {
		t.Fatalf("%d frames in 3 s of a looping replay at full speed: real time would give 301", daemontest.Frames(got.All(), "right"))
	}
	// Timetags go on from pass to pass: a receiver sorting by them never
	// sees time go back (samples read in one chunk share a time).
	var last uint64
	for _, b := range got.All() {
		if daemontest.Frames([]*goosc.Bundle{b}, "right") == 0 {
			continue
		}
		if tt := b.Timetag.TimeTag(); tt < last {
			t.Fatalf("timetag %x after %x: the loop went back in time", tt, last)
		} else {
			last = tt
		}
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestAGloveThatDoesNotFitItsCalibrationStopsItsHandAlone: a glove that
// opens but reports another sensor count than its calibration's is the
// config's fault, not an absent glove: its hand stops retrying, reports
// no-glove and logs the reason once, while the daemon and its other hand
// go on (the whole daemon used to stop).
func TestAGloveThatDoesNotFitItsCalibrationStopsItsHandAlone(t *testing.T) {
	link := filepath.Join(t.TempDir(), "glove")
	emulatortest.Start(t, emulator.Opts{Sensors: 22, Right: true}, link, emulator.Hangup{})
	rx, got := daemontest.Listen(t)
	cfg, err := ParseConfig("mismatch.toml", []byte(hand("right", "cyberglove", quoted("port", link), `calibration = "../configs/calibration-18.toml"`)+
		hand("left", "sim")+builtinScene(rx.LocalAddr().String())))
	if err != nil {
		t.Fatal(err)
	}
	var log lockedBuffer
	d, err := New(cfg, zerolog.New(&log))
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	stopped := func() bool { return strings.Contains(log.String(), "is for 18 sensors, the glove has 22") }
	if !waitFor(10*time.Second, stopped) {
		t.Fatalf("the right hand did not stop on its calibration within 10 s; log:\n%s", log.String())
	}
	left := daemontest.Frames(got.All(), "left")
	if !waitFor(5*time.Second, func() bool { return daemontest.Frames(got.All(), "left") > left+50 }) {
		t.Fatalf("the left hand sent %d frames after the right one stopped", daemontest.Frames(got.All(), "left")-left)
	}
	select {
	case err := <-done:
		t.Fatalf("the daemon ended (%v) when one hand stopped", err)
	default:
	}
	if s := daemontest.Statuses(got.All(), "right"); len(s) == 0 || s[len(s)-1] != StatusNoGlove {
		t.Errorf("right hand statuses %v, want to end %s", s, StatusNoGlove)
	}
	if n := strings.Count(log.String(), "is for 18 sensors"); n != 1 {
		t.Errorf("the reason was logged %d times, want once:\n%s", n, log.String())
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
