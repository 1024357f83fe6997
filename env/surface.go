package env

import (
	"context"
	"fmt"
	"math"

	"github.com/gloved/gloved/geom"
)

// Surface is one scene object prepared for signed distance queries: its own
// OBBTree, each triangle's edge neighbours, and each vertex's
// angle-weighted pseudonormal (J. A. Bærentzen, H. Aanæs, "Signed
// distance computation using the angle weighted pseudonormal", IEEE TVCG
// 11(3), 2005). For a closed surface the sign of (p - q)·n, q the closest
// point to p and n the pseudonormal of the feature q lies on, tells
// inside from outside exactly; for an open surface it tells the side,
// except where q is on the boundary.
//
// Closed means watertight and consistently wound: after welding equal
// corners, every edge is used by exactly two triangles, once in each
// direction. A closed object wound inward (negative enclosed volume) is
// taken as the same solid wound outward.
type Surface struct {
	Tree   *Tree
	Closed bool
	// Tris are the object's triangles in m's numbering; the tree's
	// triangle i is Tris[i].
	Tris []int32

	nb   [][3]int32 // per tree triangle edge k (corner k to k+1): the other triangle, or -1 on a boundary
	tris [][3]int32 // the tree's triangles (its mesh's, shared)
	// A corner's welded vertex is wid[v-vbase], v its vertex in the scene;
	// or, for an object whose vertices span more than its corners,
	// corn[tri][k].
	wid   []int32
	vbase int32
	corn  [][3]int32
	vertN []geom.Vec3 // per welded vertex: pseudonormal, zero on a boundary
	flip  float64     // -1 when a closed surface is wound inward
}

// NewSurface prepares object o of m.
func NewSurface(m *Mesh, o int) (*Surface, error) {
	return NewSurfaceContext(context.Background(), m, o)
}

// NewSurfaceContext is NewSurface, given up, with ctx's error, soon after
// ctx ends: its tree's build looks at every node, and each step after it
// looks before it starts.
func NewSurfaceContext(ctx context.Context, m *Mesh, o int) (*Surface, error) {
	orig := m.ObjectTris(o)
	sub, _ := m.subsetOf(orig)
	if len(sub.Tris) == 0 {
		return nil, fmt.Errorf("env: object %d has no triangles", o)
	}
	t, err := BuildContext(ctx, sub, BuildOptions{})
	if err != nil {
		return nil, fmt.Errorf("env: object %s: %w", m.Objects[o], err)
	}
	s := &Surface{Tree: t, Tris: orig, flip: 1}
	for _, step := range []func(){func() { s.weld(sub) }, s.link, func() { s.normals(sub) }} {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("env: object %s: %w", m.Objects[o], err)
		}
		step()
	}
	if s.Closed {
		if signedVolume(sub) < 0 {
			s.flip = -1
		}
	}
	return s, nil
}

// weld numbers the object's corners by position, so that seams (a
// vertex repeated for its normals or texture) do not open the surface. It
// sorts the object's own vertices (package weld's way), so its work and
// memory follow the object's size, not the scene's.
func (s *Surface) weld(m *Mesh) {
	s.tris = m.Tris
	lo, hi := int32(math.MaxInt32), int32(-1)
	for _, t := range m.Tris {
		for _, v := range t {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	// Welded by vertex, 4 bytes a vertex of the span; by corner, 4 bytes a
	// corner: an object whose vertices lie among others' (a scene's
	// interleaved objects), its span beyond its corners, keeps its corners'.
	if int(hi-lo+1) > 3*len(m.Tris) {
		s.weldCorners(m)
		return
	}
	local := make([]int32, hi-lo+1) // scene vertex v -> 1 + its index in pos, 0 if unused
	var pos []geom.Vec3
	for _, t := range m.Tris {
		for _, v := range t {
			if local[v-lo] == 0 {
				pos = append(pos, m.Verts[v])
				local[v-lo] = int32(len(pos))
			}
		}
	}
	welded, ids := weld(pos)
	s.vertN = make([]geom.Vec3, len(welded))
	for i, l := range local {
		if l > 0 {
			local[i] = ids[l-1]
		}
	}
	s.wid, s.vbase = local, lo
}

// weldCorners is weld for an object whose vertices are spread among
// others': it keeps each corner's welded vertex.
func (s *Surface) weldCorners(m *Mesh) {
	local := make(map[int32]int32) // scene vertex -> index in pos
	var pos []geom.Vec3
	for _, t := range m.Tris {
		for _, v := range t {
			if _, ok := local[v]; !ok {
				local[v] = int32(len(pos))
				pos = append(pos, m.Verts[v])
			}
		}
	}
	welded, ids := weld(pos)
	s.corn = make([][3]int32, len(m.Tris))
	for i, t := range m.Tris {
		for k, v := range t {
			s.corn[i][k] = ids[local[v]]
		}
	}
	s.vertN = make([]geom.Vec3, len(welded))
}

// corner returns the welded vertex of tree triangle i's corner k.
func (s *Surface) corner(i, k int) int32 {
	if s.wid != nil {
		return s.wid[s.tris[i][k]-s.vbase]
	}
	return s.corn[i][k]
}

// halfEdge is corner k of triangle tri's edge to corner k+1, filed under
// its lower welded vertex with the other one.
type halfEdge struct{ other, tri, k int32 }

// link finds each edge's neighbour across it and decides closedness. An
// edge used by two triangles in opposite directions links them; an edge
// used once, or more than twice, or twice in one direction is a boundary
// for the side test and makes the surface open. Edges are bucketed by
// their lower vertex (a few per vertex), so the work is linear.
func (s *Surface) link() {
	start := make([]int32, len(s.vertN)+1)
	s.eachEdge(func(i, k int, a, b int32) { start[min(a, b)+1]++ })
	for v := range s.vertN {
		start[v+1] += start[v]
	}
	edges := make([]halfEdge, start[len(s.vertN)])
	next := append([]int32(nil), start[:len(s.vertN)]...)
	s.eachEdge(func(i, k int, a, b int32) {
		lo := min(a, b)
		edges[next[lo]] = halfEdge{max(a, b), int32(i), int32(k)}
		next[lo]++
	})
	s.nb = make([][3]int32, len(s.tris))
	for i := range s.nb {
		s.nb[i] = [3]int32{-1, -1, -1}
	}
	s.Closed = true
	s.eachEdge(func(i, k int, a, b int32) {
		lo, hi := min(a, b), max(a, b)
		uses, other := 0, halfEdge{tri: -1}
		for _, e := range edges[start[lo]:start[lo+1]] {
			if e.other != hi {
				continue
			}
			uses++
			if e.tri != int32(i) || e.k != int32(k) {
				other = e
			}
		}
		switch {
		case uses != 2:
			s.Closed = false
		case s.corner(int(other.tri), int(other.k)) != b: // same direction: inconsistently wound
			s.Closed = false
		default:
			s.nb[i][k] = other.tri
		}
	})
}

// eachEdge calls fn for every edge of every triangle that joins two
// distinct welded vertices (a collapsed edge has no length and needs no
// neighbour): triangle i's edge k runs from a to b.
func (s *Surface) eachEdge(fn func(i, k int, a, b int32)) {
	for i := range s.tris {
		for k := range 3 {
			if a, b := s.corner(i, k), s.corner(i, (k+1)%3); a != b {
				fn(i, k, a, b)
			}
		}
	}
}

// normals computes the vertices' angle-weighted pseudonormals; a vertex
// on a boundary edge gets none.
func (s *Surface) normals(m *Mesh) {
	boundary := make([]bool, len(s.vertN))
	for i := range m.Tris {
		t := m.Triangle(i)
		n := faceNormal(t)
		for k := range 3 {
			a, b := s.corner(i, k), s.corner(i, (k+1)%3)
			if s.nb[i][k] < 0 && a != b {
				boundary[a], boundary[b] = true, true
			}
			s.vertN[a] = s.vertN[a].Add(n.Mul(cornerAngle(t, k)))
		}
	}
	for v, b := range boundary {
		if b {
			s.vertN[v] = geom.Vec3{}
		}
	}
}

// faceNormal returns t's unit normal, zero when t is degenerate. It is
// computed where it is used rather than kept: 24 bytes a triangle.
func faceNormal(t geom.Triangle) geom.Vec3 {
	n := t.Normal()
	if l := n.Len(); l > 0 && !t.Degenerate() {
		return n.Mul(1 / l)
	}
	return geom.Vec3{}
}

// cornerAngle returns t's angle at corner k (0 for a collapsed corner).
func cornerAngle(t geom.Triangle, k int) float64 {
	u, v := t[(k+1)%3].Sub(t[k]), t[(k+2)%3].Sub(t[k])
	lu, lv := u.Len(), v.Len()
	if lu == 0 || lv == 0 {
		return 0
	}
	return math.Acos(math.Max(-1, math.Min(1, u.Dot(v)/(lu*lv))))
}

// signedVolume is Σ v0·(v1×v2)/6: the enclosed volume of a closed mesh,
// positive when its faces wind outward (divergence theorem).
func signedVolume(m *Mesh) float64 {
	v := 0.0
	for i := range m.Tris {
		t := m.Triangle(i)
		v += t[0].Dot(t[1].Cross(t[2])) / 6
	}
	return v
}

// faceNormal returns tree triangle i's unit outward normal as wound (zero
// when degenerate).
func (s *Surface) faceNormal(i int32) geom.Vec3 { return faceNormal(s.Tree.Mesh.Triangle(int(i))) }

// side returns the direction that points out of the surface at feature f
// of tree triangle i, and false where the feature is on a boundary (or
// has no direction: a degenerate face).
func (s *Surface) side(i int32, f geom.Feature) (geom.Vec3, bool) {
	var n geom.Vec3
	if k, ok := f.Edge(); ok {
		o := s.nb[i][k]
		if o < 0 {
			return n, false
		}
		n = s.faceNormal(i).Add(s.faceNormal(o))
	} else if k, ok := f.Corner(); ok {
		n = s.vertN[s.corner(int(i), k)]
	} else {
		n = s.faceNormal(i)
	}
	return n.Mul(s.flip), n != geom.Vec3{}
}

// Behind reports whether p, whose nearest point of the surface is q on
// feature f of tree triangle i, is inside a closed surface or behind an
// open one (false where q is on the boundary).
func (s *Surface) Behind(i int32, f geom.Feature, p, q geom.Vec3) bool {
	side, ok := s.side(i, f)
	return ok && p.Sub(q).Dot(side) < 0
}
