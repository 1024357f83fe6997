package daemon

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gloved/gloved/daemon/daemontest"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove"
	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/devices/emulator/emulatortest"
	"github.com/gloved/gloved/devices/replay"
)

// fault is one way a glove misbehaves, and what the daemon must show for it.
type fault struct {
	name     string
	opts     emulator.Opts
	hang     emulator.Hangup
	statuses []string // on the wire, in this order (others may come between)
	count    func(devices.Faults, *HandStats) uint64
	// lost bounds the records the emulator sent that the recording may
	// miss besides the one in flight at shutdown (garbage: those it hit).
	lost int
	// drained: the records missed are those the reopening handshake
	// drained, each counted in the skipped bytes (lost is then read from
	// those, not from the clock).
	drained bool
}

// TestFaultCampaign: an emulated glove on a pty, a CyberGlove I/II and a
// III, with each fault, and the daemon recording its session. For each:
// the statuses on the wire, the watchdog fed throughout, the fault
// counted, and the recording holding the records the emulator sent.
func TestFaultCampaign(t *testing.T) {
	if raceEnabled {
		t.Skip("asserts timing (statuses, watchdog gaps); the race detector slows the pipeline several times: run without -race")
	}
	at, span := 900*time.Millisecond, 500*time.Millisecond
	faults := []fault{
		{name: "garbage 1%", opts: emulator.Opts{Garbage: 0.01, Seed: 11}, statuses: []string{StatusStreaming},
			count: func(f devices.Faults, _ *HandStats) uint64 { return f.BadFrames }, lost: 1 << 20},
		{name: "garbage 5%", opts: emulator.Opts{Garbage: 0.05, Seed: 12}, statuses: []string{StatusStreaming},
			count: func(f devices.Faults, _ *HandStats) uint64 { return f.BadFrames }, lost: 1 << 20},
		{name: "glove unplugged from the unit", opts: emulator.Opts{UnplugAt: at, UnplugFor: span}, statuses: []string{StatusStreaming, StatusNoGlove, StatusStreaming},
			count: func(f devices.Faults, _ *HandStats) uint64 { return f.NoGlove }},
		// The unit streams into the re-created port before the driver has
		// reopened it (backoff 100 ms, then 200 ms...): the reopening
		// handshake drains those records, live and in the recording alike.
		// How many depends on when the reopening comes (a loaded machine
		// fails more attempts and waits longer), so the records missed are
		// checked against the bytes drained, every one accounted for.
		{name: "port hung up", hang: emulator.Hangup{At: at, For: span}, statuses: []string{StatusStreaming, StatusReconnecting, StatusStreaming},
			count: func(f devices.Faults, _ *HandStats) uint64 { return f.Reconnects }, drained: true},
		{name: "unit silent", opts: emulator.Opts{SilentAt: at, SilentFor: 2 * span}, statuses: []string{StatusStreaming, StatusStalled, StatusStreaming},
			count: func(_ devices.Faults, s *HandStats) uint64 { return s.Stalls.Load() }},
	}
	for _, model := range []cyberglove.Model{cyberglove.ModelII, cyberglove.ModelIII} {
		for _, f := range faults {
			t.Run(string(model)+"/"+f.name, func(t *testing.T) { runFault(t, model, f) })
		}
	}
}

func runFault(t *testing.T, model cyberglove.Model, f fault) {
	const watchdog = 400 * time.Millisecond // pings every 200 ms
	sd := fakeSystemd(t, watchdog)
	dir := t.TempDir()
	link, rec := filepath.Join(dir, "glove"), filepath.Join(dir, "session.glove")
	f.opts.Model, f.opts.Sensors, f.opts.Right = model, 22, true
	rx, got := daemontest.Listen(t)
	d, done, stop := startDaemon(t, 0, "fault.toml",
		hand("right", string(model), quoted("port", link), quoted("recording", rec))+builtinScene(rx.LocalAddr().String(), "stall_ms = 300.0"))
	// The glove comes after the daemon (which waits for it): the fault's
	// time counts from here.
	start := time.Now()
	em := emulatortest.Start(t, f.opts, link, f.hang)
	time.Sleep(time.Until(start.Add(2800 * time.Millisecond))) // the faults come at 0.9 s
	statuses := daemontest.Statuses(got.All(), "right")
	if !daemontest.InOrder(statuses, append([]string{StatusNoGlove}, f.statuses...)) {
		t.Errorf("statuses %v, want %v in that order", statuses, f.statuses)
	}
	pings, gap := sd.pings(start.Add(100*time.Millisecond), start.Add(2700*time.Millisecond))
	if pings < 10 || gap >= watchdog {
		t.Errorf("watchdog: %d pings, longest gap %v (timeout %v)", pings, gap, watchdog)
	}
	h := d.hands[0]
	faults := h.device().(devices.FaultCounter).Faults()
	if f.count(faults, &h.Stats) == 0 {
		t.Errorf("the fault was not counted: faults %+v, stalls %d", faults, h.Stats.Stalls.Load())
	}
	lost := f.lost
	if f.drained {
		// Each record missed was drained whole by the reopening, or sent
		// and not yet read when the port hung up (the pty discards those,
		// as an unplugged adapter does); two more may have been cut by the
		// hang-up and the reopening.
		size := uint64(cyberglove.Record3Len)
		if model == cyberglove.ModelII { // as the daemon opens it: 22 sensors and the status byte
			size = uint64(cyberglove.Format{Sensors: 22, Status: true}.RecordLen())
		}
		unread := uint64(em.Emulator.Stats().Unread)
		lost = int((faults.SkippedBytes+size-1)/size+(unread+size-1)/size) + 2
	}
	// The end: the unit's stream ends, and the daemon reads all it was
	// sent (it says stalled once nothing more comes) before it stops.
	// Every record sent is then recorded, but those the fault lost.
	stalls := h.Stats.Stalls.Load()
	em.Emulator.EndStream()
	if !waitFor(10*time.Second, func() bool { return h.Stats.Stalls.Load() > stalls }) {
		t.Fatalf("the daemon never saw the stream end: statuses %v", daemontest.Statuses(got.All(), "right"))
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	recorded := checkRecording(t, rec, em.Values(), lost)
	t.Logf("sent %d records, recorded %d; statuses %v; %d frames; watchdog %d pings, longest gap %v; faults %+v; stalls %d; %d bytes unread at hang-up",
		len(em.Values()), recorded, statuses, h.Stats.Frames.Load(), pings, gap.Round(time.Millisecond), faults, h.Stats.Stalls.Load(), em.Emulator.Stats().Unread)
}

// checkRecording replays rec and compares its samples with the records the
// emulator sent, its stream ended and read to its end: every sample was
// sent, in order, at most lost sent records are missing, and none after
// the last sample.
func checkRecording(t *testing.T, rec string, sent [][]uint16, lost int) int {
	t.Helper()
	r, err := replay.Open(rec, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var s devices.Sample
	k, missed := 0, 0
	n := 0
	for {
		err := r.Read(&s)
		if err != nil && !devices.Transient(err) {
			break
		}
		if err != nil {
			continue
		}
		n++
		b := s.Sensors()
		for k < len(sent) && !slices.Equal(sent[k], b) {
			k++
			missed++
		}
		if k == len(sent) {
			t.Fatalf("recorded sample %d was never sent", n)
		}
		k++
	}
	if r.Warning() != nil {
		t.Errorf("the recording is damaged: %v", r.Warning())
	}
	if tail := len(sent) - k; missed > lost || tail > 0 {
		t.Errorf("%d samples recorded of %d sent: %d missed before the last (want at most %d), %d after (want none: the stream ended before the daemon stopped)", n, len(sent), missed, lost, tail)
	}
	if n < 50 {
		t.Errorf("only %d samples recorded", n)
	}
	return n
}
