package experiments

import (
	"context"
	"testing"

	"github.com/gloved/gloved/cab"
)

// TestExperimentsCountAlike: OBB and CAB share their leaves, so their
// query counts are identical (the paper's observation); brute force runs
// every pair; every strategy finds the contacts brute force finds (its
// true-query count is the same).
func TestExperimentsCountAlike(t *testing.T) {
	tabs := []*Table{}
	for _, c := range []struct {
		m Motion
		s LinkShape
	}{{Wave, LinkShape{Length: 3, Thickness: 1}}, {Braid, LinkShape{Length: 6, Thickness: 1}}} {
		tab, err := ChainExperiment(context.Background(), string(c.m), c.m, c.s, 200)
		if err != nil {
			t.Fatal(err)
		}
		tabs = append(tabs, tab)
	}
	hand, err := HandExperiment(context.Background(), 120, 3)
	if err != nil {
		t.Fatal(err)
	}
	tabs = append(tabs, hand)
	for _, tab := range tabs {
		rows := map[string]Row{}
		for _, r := range tab.Rows {
			rows[r.Method] = r
		}
		brute := rows["brute"]
		if tab.Frames*106 != brute.Coll && tab != hand {
			t.Errorf("%s: brute force ran %d queries, want %d", tab.Name, brute.Coll, tab.Frames*106)
		}
		trueHits := brute.Coll - brute.False
		if trueHits == 0 {
			t.Errorf("%s: no contact in the whole run", tab.Name)
		}
		if rows["OBB"].Coll != rows["CAB"].Coll || rows["OBB"].False != rows["CAB"].False {
			t.Errorf("%s: OBB %d/%d and CAB %d/%d counts differ", tab.Name, rows["OBB"].Coll, rows["OBB"].False, rows["CAB"].Coll, rows["CAB"].False)
		}
		for _, s := range cab.Strategies {
			r := rows[string(s)]
			if r.Coll-r.False != trueHits {
				t.Errorf("%s %s: %d true queries, brute force %d", tab.Name, s, r.Coll-r.False, trueHits)
			}
			if r.Coll > brute.Coll {
				t.Errorf("%s %s: more queries (%d) than brute force (%d)", tab.Name, s, r.Coll, brute.Coll)
			}
		}
		t.Logf("%s: %+v", tab.Name, tab.Rows)
	}
}
