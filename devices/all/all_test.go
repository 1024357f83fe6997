package all_test

import (
	"fmt"
	"strings"
	"testing"

	_ "github.com/gloved/gloved/devices/all"
	"github.com/gloved/gloved/devices/driver"
	_ "github.com/gloved/gloved/devices/replay"
	_ "github.com/gloved/gloved/devices/tracker" // linked by the session (see the package doc)
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/internal/readmetest"
)

// TestEveryShippedDriverMapsOntoTheHand: the shipped drivers are all
// registered, and each of their layouts names joints the hand has and
// ships a calibration that parses for it.
func TestEveryShippedDriverMapsOntoTheHand(t *testing.T) {
	want := []string{"cyberglove", "cyberglove3", "opengloves", "osc", "replay", "sim", "vmc"}
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

// TestTheDocsListEveryDriversKeys: the configuration reference's table of
// each driver's keys is made from the registrations (go test -update
// writes it).
func TestTheDocsListEveryDriversKeys(t *testing.T) {
	var b strings.Builder
	b.WriteString("| device | what it is | its keys |\n| --- | --- | --- |\n")
	for _, d := range driver.All() {
		var keys []string
		for _, k := range d.Keys {
			keys = append(keys, fmt.Sprintf("`%s`: %s", k.Name, k.Doc))
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", d.Name, cell(d.Summary), cell(strings.Join(keys, "; ")))
	}
	readmetest.Section(t, "driver-keys", b.String())
}

// cell escapes a table cell's |.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
