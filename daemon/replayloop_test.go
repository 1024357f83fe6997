package daemon

import (
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/daemon/daemontest"
	"github.com/gloved/gloved/devices/recording/recordingtest"
	"github.com/gloved/gloved/devices/replay"
)

// TestALoopingReplayOfOneSamplePlaysAPassEveryMinPass: a looping replay
// at the recorded pace of a recording of one sample at time 0 (a pass of
// no duration) plays a pass at most every replay.MinPass, not as fast as
// the CPU spins (94,360 frames in 6 s before), and still loops.
func TestALoopingReplayOfOneSamplePlaysAPassEveryMinPass(t *testing.T) {
	rec, _ := recordingtest.Stamped(t, 0)
	rx, got := daemontest.Listen(t)
	runFor := time.Second
	_, done, _ := startDaemon(t, runFor, "one.toml", hand("right", "replay", quoted("recording", rec), "loop = true")+sections{target: rx.LocalAddr().String()}.String())
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // the last datagrams in flight
	frames := 0
	for _, b := range got.All() {
		for _, m := range b.Messages {
			if strings.HasSuffix(m.Address, "/frame") {
				frames++
			}
		}
	}
	// A pass every MinPass is 100 passes in the second; half as many
	// again is room for a slow start, none for a spin.
	most := int(runFor/replay.MinPass) * 3 / 2
	if frames < 2 || frames > most {
		t.Fatalf("%d frames in %v: want 2 (it loops) to %d (a pass every %v)", frames, runFor, most, replay.MinPass)
	}
	t.Logf("%d frames in %v", frames, runFor)
}
