package experiments

import (
	"time"

	"github.com/gloved/gloved/cab"
)

// Row is one line of a results table: a strategy's cumulative figures over
// all frames, as in the paper's tables.
type Row struct {
	Method  string        `json:"method"`
	Coll    int           `json:"coll"`  // exact queries run
	False   int           `json:"false"` // of which found no contact
	Query   time.Duration `json:"t_query_ns"`
	Update  time.Duration `json:"t_upd_ns"`
	Test    time.Duration `json:"t_test_ns"`
	Volume  float64       `json:"mean_internal_volume"` // mean total volume of the internal boxes per frame
	BoxTest int           `json:"box_tests"`
}

// Total is t[total].
func (r Row) Total() time.Duration { return r.Query + r.Update + r.Test }

// count records one exact query and whether it found contact.
func (r *Row) count(hit bool) {
	r.Coll++
	if !hit {
		r.False++
	}
}

// Table is one experiment.
type Table struct {
	Name   string `json:"name"`
	Frames int    `json:"frames"`
	Rows   []Row  `json:"rows"`
}

// runTable makes an experiment's table: the brute-force row, then one row
// per strategy in the paper's order.
func runTable(name string, frames int, brute func() (Row, error), strategy func(cab.Strategy) (Row, error)) (*Table, error) {
	row, err := brute()
	if err != nil {
		return nil, err
	}
	tab := &Table{Name: name, Frames: frames, Rows: []Row{row}}
	for _, s := range cab.Strategies {
		row, err := strategy(s)
		if err != nil {
			return nil, err
		}
		tab.Rows = append(tab.Rows, row)
	}
	return tab, nil
}

// internalVolume is the total volume of a hierarchy's internal boxes.
func internalVolume(h *cab.Hierarchy) float64 {
	v := 0.0
	for i := range h.Boxes {
		v += h.Boxes[i].Volume()
	}
	return v
}
