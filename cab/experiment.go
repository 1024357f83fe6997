package cab

import (
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
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

// Table is one experiment.
type Table struct {
	Name   string `json:"name"`
	Frames int    `json:"frames"`
	Rows   []Row  `json:"rows"`
}

// ChainExperiment runs two chains of 8 links (16 in all) through a motion
// for the given frames (t advances 10 ms a frame). Per frame the pairs
// tested are the 64 chain-to-chain pairs and the non-adjacent pairs within
// each chain (2 × 21): 106 for brute force; the hierarchies' candidates
// for the strategies.
func ChainExperiment(name string, m Motion, s LinkShape, frames int) (*Table, error) {
	const n = 8
	ba, err := ChainBody("a", n, s)
	if err != nil {
		return nil, err
	}
	bb, _ := ChainBody("b", n, s)
	ha, _ := Build(ba)
	hb, _ := Build(bb)
	ea, err := NewExact(ba)
	if err != nil {
		return nil, err
	}
	eb, _ := NewExact(bb)
	pa, pb := make([]geom.Transform, n), make([]geom.Transform, n)
	bendA, bendB := make([][2]float64, n), make([][2]float64, n)
	tab := &Table{Name: name, Frames: frames}

	brute := Row{Method: "brute"}
	for f := range frames {
		TwoChainPoses(m, s, n, float64(f)*0.01, bendA, bendB, pa, pb)
		t0 := time.Now()
		for i := range n {
			for j := range n {
				brute.Coll++
				if !ea.LinkLink(i, pa[i], eb, j, pb[j]) {
					brute.False++
				}
			}
			for j := i + 2; j < n; j++ {
				for _, c := range [2]struct {
					e *Exact
					p []geom.Transform
				}{{ea, pa}, {eb, pb}} {
					brute.Coll++
					if !c.e.LinkLink(i, c.p[i], c.e, j, c.p[j]) {
						brute.False++
					}
				}
			}
		}
		brute.Query += time.Since(t0)
	}
	tab.Rows = append(tab.Rows, brute)

	for _, strat := range Strategies {
		ra, err := NewRefitter(strat, ha)
		if err != nil {
			return nil, err
		}
		rb, _ := NewRefitter(strat, hb)
		row := Row{Method: string(strat)}
		q := BodyQuery{SkipAdjacent: true}
		var cand []LinkPair
		for f := range frames {
			TwoChainPoses(m, s, n, float64(f)*0.01, bendA, bendB, pa, pb)
			t0 := time.Now()
			ra.Refit(pa)
			rb.Refit(pb)
			t1 := time.Now()
			q.Run(ha, hb)
			cross := len(q.Pairs)
			cand = append(cand[:0], q.Pairs...)
			boxes := q.BoxTests
			q.Self(ha)
			selfA := len(q.Pairs)
			cand = append(cand, q.Pairs...)
			boxes += q.BoxTests
			q.Self(hb)
			cand = append(cand, q.Pairs...)
			boxes += q.BoxTests
			t2 := time.Now()
			for k, p := range cand {
				row.Coll++
				var hit bool
				switch {
				case k < cross:
					hit = ea.LinkLink(int(p.A), pa[p.A], eb, int(p.B), pb[p.B])
				case k < cross+selfA:
					hit = ea.LinkLink(int(p.A), pa[p.A], ea, int(p.B), pa[p.B])
				default:
					hit = eb.LinkLink(int(p.A), pb[p.A], eb, int(p.B), pb[p.B])
				}
				if !hit {
					row.False++
				}
			}
			t3 := time.Now()
			row.Update += t1.Sub(t0)
			row.Test += t2.Sub(t1)
			row.Query += t3.Sub(t2)
			row.BoxTest += boxes
			row.Volume += internalVolume(ha) + internalVolume(hb)
		}
		row.Volume /= float64(frames)
		tab.Rows = append(tab.Rows, row)
	}
	return tab, nil
}

func internalVolume(h *Hierarchy) float64 {
	v := 0.0
	for i := range h.Boxes {
		v += h.Boxes[i].Volume()
	}
	return v
}

// HandExperiment drives the hand with the simulated glove grasping a ball
// on a table (the paper's table 5). A query is one (link, object) pair:
// brute force runs the exact test for every link against every object;
// the strategies run it for the (link, object) pairs their candidate
// (link, triangle) pairs name, over those triangles.
func HandExperiment(frames, ballLevel int) (*Table, error) {
	hand, err := handmodel.New(handmodel.DefaultParams)
	if err != nil {
		return nil, err
	}
	body, err := HandBody(hand)
	if err != nil {
		return nil, err
	}
	h, _ := Build(body)
	exact, err := NewExact(body)
	if err != nil {
		return nil, err
	}
	scene := env.GraspScene(ballLevel)
	tree, err := env.Build(scene, env.BuildOptions{})
	if err != nil {
		return nil, err
	}
	// One tree per object for the brute-force link-object queries.
	objects := make([]*env.Tree, len(scene.Objects))
	for o := range scene.Objects {
		m := &env.Mesh{Verts: scene.Verts, Objects: scene.Objects[o : o+1]}
		for i, t := range scene.Tris {
			if int(scene.Object[i]) == o {
				m.Tris, m.Object = append(m.Tris, t), append(m.Object, 0)
			}
		}
		if objects[o], err = env.Build(m, env.BuildOptions{}); err != nil {
			return nil, err
		}
	}
	cal, err := handmodel.DefaultCalibration(22)
	if err != nil {
		return nil, err
	}
	poseAt := func(glove *devices.SimGlove, out []geom.Transform) error {
		var s devices.Sample
		var q handmodel.Angles
		if err := glove.Read(&s); err != nil {
			return err
		}
		if err := cal.Angles(&s, &hand.Limits, &q); err != nil {
			return err
		}
		hand.Pose(&q, env.GraspWrist(), out)
		return nil
	}
	poses := make([]geom.Transform, len(body.Links))
	tab := &Table{Name: "hand grasping a ball on a table", Frames: frames}

	glove, _ := devices.NewSimGlove(devices.Grasp, 22, 10*time.Millisecond, true)
	brute := Row{Method: "brute"}
	var col env.Collider
	col.FirstContact = true
	for range frames {
		if err := poseAt(glove, poses); err != nil {
			return nil, err
		}
		t0 := time.Now()
		for l := range poses {
			for o := range objects {
				brute.Coll++
				if !exact.LinkSurface(l, poses[l], objects[o], &col) {
					brute.False++
				}
			}
		}
		brute.Query += time.Since(t0)
	}
	tab.Rows = append(tab.Rows, brute)

	for _, strat := range Strategies {
		ref, err := NewRefitter(strat, h)
		if err != nil {
			return nil, err
		}
		glove, _ := devices.NewSimGlove(devices.Grasp, 22, 10*time.Millisecond, true)
		row := Row{Method: string(strat)}
		var sq SceneQuery
		hits := make([]int8, len(poses)*len(scene.Objects)) // per (link, object): 0 untested, 1 miss, 2 hit
		for range frames {
			if err := poseAt(glove, poses); err != nil {
				return nil, err
			}
			t0 := time.Now()
			ref.Refit(poses)
			t1 := time.Now()
			sq.Run(h, tree)
			t2 := time.Now()
			clear(hits)
			for _, p := range sq.Pairs {
				k := int(p.Link)*len(scene.Objects) + int(scene.Object[p.Tri])
				if hits[k] == 2 {
					continue
				}
				if exact.LinkTriangle(int(p.Link), poses[p.Link], scene.Triangle(int(p.Tri))) {
					hits[k] = 2
				} else {
					hits[k] = 1
				}
			}
			for _, v := range hits {
				if v > 0 {
					row.Coll++
					if v == 1 {
						row.False++
					}
				}
			}
			t3 := time.Now()
			row.Update += t1.Sub(t0)
			row.Test += t2.Sub(t1)
			row.Query += t3.Sub(t2)
			row.BoxTest += sq.BoxTests
			row.Volume += internalVolume(h)
		}
		row.Volume /= float64(frames)
		tab.Rows = append(tab.Rows, row)
	}
	return tab, nil
}

// LinkSurface reports whether link l placed by pose meets the surface of
// a scene object (its own tree): the surfaces cross, or an object triangle
// lies inside the link. A link wholly inside a closed object does not
// count: the scene is triangles here; solid objects are the narrow phase's.
func (e *Exact) LinkSurface(l int, pose geom.Transform, obj *env.Tree, col *env.Collider) bool {
	if col.Collide(obj, e.trees[l], pose) > 0 {
		return true
	}
	box := e.Body.Links[l].Box.Transformed(pose)
	inv := pose.Inverse()
	inside := false
	obj.VisitOBB(&box, &e.stack, func(tri int32) bool {
		inside = e.inside(l, inv.Apply(obj.Mesh.Triangle(int(tri))[0]))
		return !inside
	})
	return inside
}
