package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBenchBCH: `gloved bench bch --json` runs the four experiments on
// the humanoid and the procedural hand with tiny counts: a row per body,
// the counts asked for, every colliding case found by the methods that
// miss nothing, a distance per depth, volumes above the mesh's for the
// single cylinder; and the plot is written. A bad body or count is a
// one-line usage error.
func TestBenchBCH(t *testing.T) {
	t.Parallel()
	svg := filepath.Join(t.TempDir(), "depth.svg")
	r := runBinary(t, 60*time.Second, "bench", "bch", "--bodies", "humanoid,hand", "--poses", "3", "--cases", "4", "--iters", "1",
		"--slides", "2", "--cells", "40", "--json", "--plot", svg)
	if r.code != 0 {
		t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
	}
	var res struct {
		Bodies []struct {
			Body         string `json:"body"`
			Construction struct {
				Poses     int                    `json:"poses"`
				Triangles float64                `json:"triangles"`
				Contour   struct{ Mean float64 } `json:"contour_us"`
			} `json:"construction"`
			Query struct {
				Cases         int     `json:"cases"`
				TrianglesHits int     `json:"triangles_hits"`
				OBBHits       int     `json:"obb_hits"`
				TallUS        float64 `json:"contour_tall_us"`
			} `json:"query"`
			Distance struct {
				Tests    int `json:"tests"`
				Cylinder struct {
					Mean float64 `json:"mean"`
				} `json:"cylinder"`
				Tall []struct {
					Depth int     `json:"depth"`
					Mean  float64 `json:"mean"`
				} `json:"contour_tall"`
				TallCritical int `json:"contour_tall_critical_depth"`
			} `json:"distance"`
			Volume struct {
				Cylinder struct {
					Mean float64 `json:"mean"`
				} `json:"cylinder"`
			} `json:"volume"`
		} `json:"bodies"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if len(res.Bodies) != 2 || res.Bodies[0].Body != "humanoid" || res.Bodies[1].Body != "hand" {
		t.Fatalf("bodies %+v, want humanoid and hand", res.Bodies)
	}
	for _, b := range res.Bodies {
		c, q, d := b.Construction, b.Query, b.Distance
		if c.Poses != 3 || !(c.Triangles > 1000) || !(c.Contour.Mean > 0) || q.Cases != 4 || q.TrianglesHits != 4 || q.OBBHits != 4 || !(q.TallUS > 0) {
			t.Errorf("%s: construction %+v, query %+v", b.Body, c, q)
		}
		if d.Tests != 2 || len(d.Tall) != 14 || d.Tall[13].Depth != -1 || d.TallCritical < -1 || d.TallCritical > 12 ||
			!(d.Cylinder.Mean > 0) || !(d.Tall[13].Mean >= 0) || !(b.Volume.Cylinder.Mean > 1) {
			t.Errorf("%s: distance %+v, volume %+v", b.Body, d, b.Volume)
		}
	}
	if b, err := os.ReadFile(svg); err != nil || !strings.Contains(string(b), "<polyline") {
		t.Errorf("the plot: %v", err)
	}
	runBinary(t, 20*time.Second, "bench", "bch", "--bodies", "humanoid,robot").oneLine(t, 2, "robot")
	runBinary(t, 20*time.Second, "bench", "bch", "--poses", "1").oneLine(t, 2, "poses 1")
}
