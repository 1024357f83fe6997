package daemon

import (
	"testing"

	"github.com/gloved/gloved/osc"
)

// TestTallyCountsEachSourceOnce: a reload folds the stopped daemon's own
// counts into the next tally, but not those of a hub it hands on, which
// go on counting themselves; a hub not handed on is folded in.
func TestTallyCountsEachSourceOnce(t *testing.T) {
	hub, err := osc.Listen("127.0.0.1:0", "/gloved")
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	value := func(d *Daemon, name string) float64 {
		for _, c := range d.counters() {
			if c.name == name {
				return d.tally.value(c)
			}
		}
		t.Fatalf("no counter %s", name)
		return 0
	}
	h := &handRuntime{}
	h.Stats.Frames.Add(7)
	hub.Stats.PacketsSent.Add(5)
	first := &Daemon{hub: hub, hands: []*handRuntime{h}, tally: newTally()}
	second := &Daemon{hub: hub, hands: []*handRuntime{{}}, tally: first.tally.next(first, &carried{hub: hub})}
	if f, p := value(second, "gloved_frames_total"), value(second, "gloved_osc_packets_sent_total"); f != 7 || p != 5 {
		t.Fatalf("hub handed on: frames %v, packets %v; want 7, 5", f, p)
	}
	other, err := osc.Listen("127.0.0.1:0", "/gloved")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	third := &Daemon{hub: other, hands: []*handRuntime{{}}, tally: second.tally.next(second, &carried{})}
	if f, p := value(third, "gloved_frames_total"), value(third, "gloved_osc_packets_sent_total"); f != 7 || p != 5 {
		t.Fatalf("a new hub: frames %v, packets %v; want 7, 5", f, p)
	}
	if first.tally.base["gloved_frames_total"] != 0 {
		t.Errorf("next changed the tally a running daemon serves")
	}
}
