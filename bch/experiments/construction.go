package experiments

import (
	"context"
	"fmt"
	"time"

	"github.com/gloved/gloved/bch"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// Trees are a body's hierarchies, one of each kind per pose, each in its
// pose's own frame (the wrist or the feet at the origin). Tall are the
// contour trees with the paper's infinitely tall cylinders: each node's
// extent along the axis unbounded.
type Trees struct {
	Frame                            Frame
	Contour, Tall, Triangles, Single []*bch.Tree
	OBB                              []*env.Tree
}

// Construction is the paper's first experiment (section 4.1, figure 3
// left): the time to build each representation of each posed mesh, in
// µs per pose, and the trees' sizes.
type Construction struct {
	Poses     int     `json:"poses"`
	Triangles float64 `json:"triangles"` // per pose, mean
	Threshold float64 `json:"threshold_m"`
	// BCH contour, BCH all projected triangles, the single cylinder and
	// the OBB tree of every triangle (env.Build on one goroutine).
	ContourUS   Stat `json:"contour_us"`
	TrianglesUS Stat `json:"triangles_us"`
	SingleUS    Stat `json:"single_us"`
	OBBUS       Stat `json:"obb_us"`
	// Nodes per tree, mean; a contour tree holds the outline's pieces.
	ContourNodes   float64 `json:"contour_nodes"`
	TrianglesNodes float64 `json:"triangles_nodes"`
	OBBNodes       float64 `json:"obb_nodes"`
}

// Construct builds every representation of every pose of b, timing each
// build, and keeps the trees for the other experiments. A BCH is rebuilt
// in place, as a frame-by-frame rebuild would be (its buffers warm from
// the last pose); the OBB tree is built anew, as env.Build does.
func Construct(ctx context.Context, b *Body) (*Trees, Construction, error) {
	res := Construction{Poses: len(b.Poses), Threshold: b.Threshold}
	tr := &Trees{}
	var work [3]bch.Tree
	variants := [3]bch.Variant{bch.Contour, bch.Triangles, bch.Single}
	var times [4][]float64
	for i, tris := range b.Poses {
		if err := ctx.Err(); err != nil {
			return nil, res, err
		}
		if i == 0 { // warm the buffers
			for k, v := range variants {
				if err := work[k].Build(tris, b.Axis, bch.Options{Variant: v, Threshold: b.Threshold}); err != nil {
					return nil, res, fmt.Errorf("experiments: %s pose %d: %w", b.Name, i, err)
				}
			}
		}
		res.Triangles += float64(len(tris))
		for k, v := range variants {
			t0 := time.Now()
			err := work[k].Build(tris, b.Axis, bch.Options{Variant: v, Threshold: b.Threshold})
			times[k] = append(times[k], us(time.Since(t0)))
			if err != nil {
				return nil, res, fmt.Errorf("experiments: %s pose %d: %w", b.Name, i, err)
			}
		}
		tr.Contour = append(tr.Contour, Compact(&work[0]))
		tr.Tall = append(tr.Tall, Tall(&work[0]))
		tr.Triangles = append(tr.Triangles, Compact(&work[1]))
		tr.Single = append(tr.Single, Compact(&work[2]))
		m := Mesh(b.Name, tris)
		t0 := time.Now()
		obb, err := env.Build(m, env.BuildOptions{Workers: 1})
		times[3] = append(times[3], us(time.Since(t0)))
		if err != nil {
			return nil, res, fmt.Errorf("experiments: %s pose %d: %w", b.Name, i, err)
		}
		tr.OBB = append(tr.OBB, obb)
		res.ContourNodes += float64(len(work[0].Nodes))
		res.TrianglesNodes += float64(len(work[1].Nodes))
		res.OBBNodes += float64(len(obb.Nodes))
	}
	if len(b.Poses) == 0 {
		return nil, res, fmt.Errorf("experiments: %s: no poses", b.Name)
	}
	tr.Frame = FrameOf(&work[1])
	n := float64(len(b.Poses))
	res.Triangles /= n
	res.ContourNodes, res.TrianglesNodes, res.OBBNodes = res.ContourNodes/n, res.TrianglesNodes/n, res.OBBNodes/n
	res.ContourUS, res.TrianglesUS = Summarise(times[0]), Summarise(times[1])
	res.SingleUS, res.OBBUS = Summarise(times[2]), Summarise(times[3])
	return tr, res, nil
}

// Mesh is tris as an env mesh of one object (three vertices a triangle).
func Mesh(name string, tris []geom.Triangle) *env.Mesh {
	m := &env.Mesh{Objects: []string{name}, Verts: make([]geom.Vec3, 0, 3*len(tris))}
	for i, t := range tris {
		m.Verts = append(m.Verts, t[0], t[1], t[2])
		m.Tris = append(m.Tris, [3]int32{int32(3 * i), int32(3*i + 1), int32(3*i + 2)})
		m.Object = append(m.Object, 0)
	}
	return m
}

// us is d in microseconds.
func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
