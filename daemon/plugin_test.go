package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/daemon/daemontest"
	_ "github.com/gloved/gloved/osc/profile/profiletest" // the tally profile: registered by importing it
)

// TestAProfileFromATestPackageIsConfiguredCheckedSentAndListed: the
// tally profile, which its own package registers and the daemon does not
// name, is a [[osc.profile]] as the shipped ones are: its own key is
// checked (a bad value, or the key on another profile, is an error naming
// it), and a running daemon sends its frames (one in every = 2, the
// palm in unreal's centimetres) to a real socket, tells it the hand's
// status, and lists its methods in the OSCQuery tree in its coordinates.
func TestAProfileFromATestPackageIsConfiguredCheckedSentAndListed(t *testing.T) {
	right, to := hand("right", "sim")+sections{}.String(), targets("127.0.0.1:9")
	for _, tc := range []struct{ profile, says string }{
		{profileTable("tally", to, "every = 0"), "osc.profile[0].every = 0: want 1 to 1000 frames"},
		{profileTable("tally", to, `every = "often"`), `osc.profile[0].every = "often": want a whole number`},
		{profileTable("openxr", to, "every = 2"), "osc.profile[0].every: only the tally profile has it"},
	} {
		_, err := ParseConfig("lab.toml", []byte(right+tc.profile))
		if err == nil || !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%q: got %v, want a config error saying %q", tc.profile, err, tc.says)
		}
	}
	rx, got := daemontest.ListenAny(t)
	other, _ := daemontest.Listen(t)
	d, done, stop := startDaemon(t, 0, "tally.toml", hand("right", "sim")+builtinScene(other.LocalAddr().String())+
		profileTable("tally", "every = 2", `coords = "unreal"`, targets(rx.LocalAddr().String())))
	tallies := func() (frames []int32, statuses []string) {
		for _, m := range got.Messages() {
			switch m.Address {
			case "/gloved/right/tally/frame":
				frames = append(frames, m.Arguments[0].(int32))
			case "/gloved/right/tally/status":
				statuses = append(statuses, fmt.Sprint(m.Arguments))
			}
		}
		return frames, statuses
	}
	if !waitFor(5*time.Second, func() bool { f, s := tallies(); return len(f) >= 20 && len(s) >= 1 }) {
		f, s := tallies()
		t.Fatalf("received %d tallies and the statuses %v", len(f), s)
	}
	frames, statuses := tallies()
	for i := 1; i < len(frames); i++ {
		if frames[i]-frames[i-1] != 2 {
			t.Fatalf("tallies of the frames %v: want every other frame", frames)
		}
	}
	if statuses[0] != "[streaming 1]" {
		t.Errorf("statuses %v, want [streaming 1] first", statuses)
	}
	resp, err := http.Get(d.OSCQueryURL() + "gloved/right/tally/frame")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var node struct {
		TYPE, DESCRIPTION string
		UNIT              []string
	}
	if err := json.NewDecoder(resp.Body).Decode(&node); err != nil || node.TYPE != "iifff" || node.UNIT[2] != "distance.cm" ||
		!strings.Contains(node.DESCRIPTION, "unreal's coordinates") {
		t.Errorf("the tree's tally node %+v (%v)", node, err)
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
