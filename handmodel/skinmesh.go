package handmodel

import (
	"fmt"
	"math"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/gltfdoc"
)

// readPrimitive appends a triangle primitive's vertices, influences and
// triangles.
func (s *Skin) readPrimitive(f *gltfdoc.File, p gltfdoc.Primitive) error {
	if p.Mode != gltfdoc.Triangles {
		return fmt.Errorf("mode %d: only triangles are read", p.Mode)
	}
	for _, a := range []struct {
		name  string
		index int32
	}{{"POSITION", p.Position}, {"JOINTS_0", p.Joints}, {"WEIGHTS_0", p.Weights}} {
		if a.index < 0 {
			return fmt.Errorf("no %s", a.name)
		}
	}
	pos, err := readPositions(f, p.Position, maxSkinVerts-len(s.Verts))
	if err != nil {
		return fmt.Errorf("POSITION: %w", err)
	}
	n := len(pos)
	if err := s.readInfluences(f, p.Joints, p.Weights, n); err != nil {
		return err
	}
	base := int32(len(s.Verts))
	s.Verts = append(s.Verts, pos...)
	return s.readTriangles(f, p.Indices, base, n)
}

// readPositions reads POSITION accessor i, at most room vertices, every
// value finite.
func readPositions(f *gltfdoc.File, i int32, room int) ([]geom.Vec3, error) {
	acc, err := f.Positions(i)
	if err != nil {
		return nil, err
	}
	if acc.Count() > room {
		return nil, fmt.Errorf("accessor %d: more than %d vertices in the skinned mesh", i, maxSkinVerts)
	}
	out := make([]geom.Vec3, acc.Count())
	return out, acc.EachVec3(func(k int, v [3]float32) error {
		out[k] = geom.Vec3{X: float64(v[0]), Y: float64(v[1]), Z: float64(v[2])}
		if !out[k].Finite() {
			return fmt.Errorf("vertex %d is not finite", k)
		}
		return nil
	})
}

// readInfluences reads n vertices' joints and weights: joints within the
// skin, weights finite and not negative, normalised to sum 1.
func (s *Skin) readInfluences(f *gltfdoc.File, ji, wi int32, n int) error {
	joints := make([][4]uint16, n)
	if err := readVertexAttr(f.Joints, ji, joints, (*gltfdoc.Accessor).ReadJoints); err != nil {
		return fmt.Errorf("JOINTS_0: %w", err)
	}
	weights := make([][4]float32, n)
	if err := readVertexAttr(f.Weights, wi, weights, (*gltfdoc.Accessor).ReadWeights); err != nil {
		return fmt.Errorf("WEIGHTS_0: %w", err)
	}
	for v := range n {
		inf, w, err := influence(v, joints[v], weights[v], len(s.Joints))
		if err != nil {
			return err
		}
		s.Influence, s.Weight = append(s.Influence, inf), append(s.Weight, w)
	}
	return nil
}

// readVertexAttr reads vertex attribute accessor i, checked by open, into
// out, one element per vertex.
func readVertexAttr[T any](open func(int32) (gltfdoc.Accessor, error), i int32, out []T, read func(*gltfdoc.Accessor, []T) error) error {
	acc, err := open(i)
	if err != nil {
		return err
	}
	if acc.Count() != len(out) {
		return fmt.Errorf("accessor %d has %d elements for %d vertices", i, acc.Count(), len(out))
	}
	return read(&acc, out)
}

// influence is vertex v's joints and weights: each weight finite and not
// negative, a joint with weight one of the skin's nj, the weights scaled
// to sum 1 and a joint without weight taken as joint 0.
func influence(v int, joints [4]uint16, weights [4]float32, nj int) ([4]int32, [4]float64, error) {
	var inf [4]int32
	var w [4]float64
	sum := 0.0
	for k := range 4 {
		wk := float64(weights[k])
		if !(wk >= 0) || math.IsInf(wk, 0) {
			return inf, w, fmt.Errorf("WEIGHTS_0: vertex %d weight %d is %v", v, k, wk)
		}
		if wk > 0 && int(joints[k]) >= nj {
			return inf, w, fmt.Errorf("JOINTS_0: vertex %d names joint %d of %d", v, joints[k], nj)
		}
		inf[k], w[k] = int32(joints[k]), wk
		sum += wk
	}
	if !(sum > 0) {
		return inf, w, fmt.Errorf("WEIGHTS_0: vertex %d has no weight", v)
	}
	for k := range w {
		w[k] /= sum
		if w[k] == 0 {
			inf[k] = 0 // a joint with no weight need not exist
		}
	}
	return inf, w, nil
}

// readTriangles appends the triangles of indices accessor i (-1: the
// vertices in order), their corners offset by base, each within the
// primitive's n vertices.
func (s *Skin) readTriangles(f *gltfdoc.File, i int32, base int32, n int) error {
	idx, err := readIndices(f, i, n)
	if err != nil {
		return fmt.Errorf("indices: %w", err)
	}
	if len(idx)%3 != 0 {
		return fmt.Errorf("%d indices, not a multiple of 3", len(idx))
	}
	for k := 0; k < len(idx); k += 3 {
		var t [3]int32
		for c := range 3 {
			if int(idx[k+c]) >= n {
				return fmt.Errorf("triangle %d names vertex %d of %d", k/3, idx[k+c], n)
			}
			t[c] = base + int32(idx[k+c])
		}
		s.Tris = append(s.Tris, t)
	}
	return nil
}

// readIndices reads indices accessor i, or for i -1 numbers n vertices in
// order.
func readIndices(f *gltfdoc.File, i int32, n int) ([]uint32, error) {
	if i < 0 {
		idx := make([]uint32, n)
		for k := range idx {
			idx[k] = uint32(k)
		}
		return idx, nil
	}
	acc, err := f.Indices(i)
	if err != nil {
		return nil, err
	}
	if acc.Count() > 3*maxSkinVerts {
		return nil, fmt.Errorf("accessor %d: %d indices, more than %d", i, acc.Count(), 3*maxSkinVerts)
	}
	idx := make([]uint32, acc.Count())
	return idx, acc.ReadIndices(idx)
}
