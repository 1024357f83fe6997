package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryContactNormalIsAUnitVectorOnATriangleOfNoArea: `gloved
// contacts --json` on a scene of one triangle whose corners lie on a line,
// under the simulated grasp, gives contacts whose normals are unit
// vectors (a hostile campaign's scene gave [0, 0, 0]).
func TestEveryContactNormalIsAUnitVectorOnATriangleOfNoArea(t *testing.T) {
	t.Parallel()
	obj := `v 0.020784007719238898 0.87514406082161078 -0.036894228152037384
v 0.01104736755033638 0.88189344246353996 -0.041707147865477232
v 0.0013107273814338613 0.88864282410546913 -0.046520067578917079
f 1 2 3
`
	path := filepath.Join(t.TempDir(), "line.obj")
	if err := os.WriteFile(path, []byte(obj), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := gloved(t, "contacts", "--scene", path, "--sim", "--wrist-pose", "0 0.91 0.10 -0.70710678 0 0 0.70710678", "--json", "--frames", "40")
	if err != nil {
		t.Fatal(err)
	}
	contacts := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var f struct {
			Contacts []contactJSON `json:"contacts"`
		}
		if err := json.Unmarshal([]byte(line), &f); err != nil {
			t.Fatal(err)
		}
		for _, c := range f.Contacts {
			contacts++
			if n := math.Hypot(math.Hypot(c.Normal[0], c.Normal[1]), c.Normal[2]); math.Abs(n-1) > 1e-6 {
				t.Fatalf("a contact's normal %v has length %v", c.Normal, n)
			}
		}
	}
	if contacts == 0 {
		t.Fatal("no contact with the line: the test shows nothing")
	}
}
