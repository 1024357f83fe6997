package daemon

import (
	"errors"
	"strings"
	"testing"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/internal/memroom"
	"github.com/gloved/gloved/session"
)

// TestSceneFitsWeighsTheEstimateAgainstTheRoom: a scene passes when its
// estimate (env.PeakBytes) is within what the least limit leaves, and is
// refused in one line naming the files, the estimate, the room and the
// limit, and what to do; with no limit known it passes.
func TestSceneFitsWeighsTheEstimateAgainstTheRoom(t *testing.T) {
	const G = 1 << 30
	big := []session.SceneFile{{Path: "big.stl"}}
	two := []session.SceneFile{{Path: "a.obj"}, {Path: "b.stl"}}
	for _, tc := range []struct {
		name  string
		files []session.SceneFile
		tris  int
		m     memroom.Machine
		says  []string // empty: fits
	}{
		{"small scene, plenty of room", big, 10_000, memroom.Machine{Available: 20 * G}, nil},
		{"no limit known", big, 100_000_000, memroom.Machine{}, nil},
		{"exactly the room", big, 1000, memroom.Machine{Available: env.PeakBytes(1000)}, nil},
		{"a byte short", big, 1000, memroom.Machine{Available: env.PeakBytes(1000) - 1}, []string{"big.stl (1000 triangles)", "needs about", ByAvailableWords}},
		{"ulimit -v", big, 1_500_000, memroom.Machine{AddressLimit: 4e9, AddressUsed: 2.7e9, Available: 20 * G},
			[]string{"big.stl (1500000 triangles) needs about 1.9 GB to load, and this process may take 1.3 GB more (ulimit -v): simplify the mesh or raise the limit"}},
		{"a cgroup, two files", two, 1_000_000, memroom.Machine{CgroupLimit: 1e9, CgroupUsed: 2e8, Available: 20 * G},
			[]string{"a.obj, b.stl (1000000 triangles)", "may take 800.0 MB more (the cgroup's memory.max)"}},
	} {
		err := sceneFits(tc.files, tc.tris, tc.m)
		if len(tc.says) == 0 {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		var tb *SceneTooBigError
		if !errors.As(err, &tb) {
			t.Errorf("%s: got %v, want a SceneTooBigError", tc.name, err)
			continue
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %q is more than one line", tc.name, err)
		}
		for _, s := range tc.says {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: %q does not say %q", tc.name, err, s)
			}
		}
	}
}

// ByAvailableWords is how the error names MemAvailable.
const ByAvailableWords = "(" + memroom.ByAvailable + ")"

// TestPeakBytesGrowsWithTheScene: the estimate is at least the measured
// peak (env/peak.go's table, 1 040 bytes a triangle reloading 1.5M) and grows
// with the triangles; a negative count is none.
func TestPeakBytesGrowsWithTheScene(t *testing.T) {
	if got := env.PeakBytes(1_500_000); got < 1_500_000*1040 {
		t.Errorf("PeakBytes(1.5M) = %d, under the measured peak of a reload", got)
	}
	if env.PeakBytes(2) <= env.PeakBytes(1) || env.PeakBytes(-5) != env.PeakBytes(0) {
		t.Error("PeakBytes does not grow with the triangles")
	}
}
