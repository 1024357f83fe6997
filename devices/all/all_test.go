package all_test

import (
	"testing"

	_ "github.com/gloved/gloved/devices/all"
	"github.com/gloved/gloved/devices/driver"
	_ "github.com/gloved/gloved/devices/replay"
	"github.com/gloved/gloved/handmodel"
)

// TestEveryShippedDriverMapsOntoTheHand: the shipped drivers are all
// registered, and each of their layouts names joints the hand has and
// ships a calibration that parses for it.
func TestEveryShippedDriverMapsOntoTheHand(t *testing.T) {
	want := []string{"cyberglove", "cyberglove3", "replay", "sim"}
	if got := driver.Names(); len(got) != len(want) {
		t.Fatalf("drivers %v, want %v", got, want)
	}
	for _, d := range driver.All() {
		if d.Summary == "" || d.Check == nil || len(d.Keys) == 0 {
			t.Errorf("%s: a summary, a check and its keys are what its docs and errors are made of", d.Name)
		}
		for _, l := range d.Layouts {
			if _, err := handmodel.NewJointMap(l); err != nil {
				t.Error(err)
			}
			c, err := handmodel.DefaultCalibrationFor(l)
			if err != nil {
				t.Errorf("%s: %v", d.Name, err)
			} else if c.Layout() != l {
				t.Errorf("%s: the calibration for %s is bound to %s", d.Name, l.Name, c.Layout().Name)
			}
		}
	}
}
