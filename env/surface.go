package env

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// Surface is one scene object prepared for signed distance queries: its own
// OBBTree, each triangle's unit normal and edge neighbours, and each
// vertex's angle-weighted pseudonormal (J. A. Bærentzen, H. Aanæs, "Signed
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

	faceN []mgl64.Vec3 // per tree triangle: unit outward normal (zero when degenerate)
	nb    [][3]int32   // per tree triangle edge k (corner k to k+1): the other triangle, or -1 on a boundary
	corn  [][3]int32   // per tree triangle corner: its welded vertex
	vertN []mgl64.Vec3 // per welded vertex: pseudonormal, zero on a boundary
	flip  float64      // -1 when a closed surface is wound inward
}

// NewSurface prepares object o of m.
func NewSurface(m *Mesh, o int) (*Surface, error) {
	sub, orig := m.Subset(func(i int) bool { return int(m.Object[i]) == o })
	if len(sub.Tris) == 0 {
		return nil, fmt.Errorf("env: object %d has no triangles", o)
	}
	t, err := Build(sub, BuildOptions{})
	if err != nil {
		return nil, fmt.Errorf("env: object %s: %w", m.Objects[o], err)
	}
	s := &Surface{Tree: t, Tris: orig, flip: 1}
	s.weld(sub)
	s.link()
	s.normals(sub)
	if s.Closed {
		if signedVolume(sub) < 0 {
			s.flip = -1
		}
	}
	return s, nil
}

// weld numbers the object's corners by position, so that seams (a
// vertex repeated for its normals or texture) do not open the surface.
func (s *Surface) weld(m *Mesh) {
	ids := make(map[mgl64.Vec3]int32)
	s.corn = make([][3]int32, len(m.Tris))
	for i, t := range m.Tris {
		for k, v := range t {
			p := m.Verts[v]
			id, ok := ids[p]
			if !ok {
				id = int32(len(ids))
				ids[p] = id
			}
			s.corn[i][k] = id
		}
	}
	s.vertN = make([]mgl64.Vec3, len(ids))
}

// link finds each edge's neighbour across it and decides closedness. An
// edge used by two triangles in opposite directions links them; an edge
// used once, or more than twice, or twice in one direction is a boundary
// for the side test and makes the surface open.
func (s *Surface) link() {
	type edge struct{ a, b int32 }
	uses := make(map[edge][]int32, 3*len(s.corn)/2)
	for i, c := range s.corn {
		for k := range 3 {
			a, b := c[k], c[(k+1)%3]
			if a == b {
				continue
			}
			e := edge{min(a, b), max(a, b)}
			uses[e] = append(uses[e], int32(3*i+k))
		}
	}
	s.nb = make([][3]int32, len(s.corn))
	for i := range s.nb {
		s.nb[i] = [3]int32{-1, -1, -1}
	}
	s.Closed = true
	for i, c := range s.corn {
		for k := range 3 {
			a, b := c[k], c[(k+1)%3]
			if a == b {
				continue // a collapsed edge has no length: no neighbour needed
			}
			u := uses[edge{min(a, b), max(a, b)}]
			if len(u) != 2 {
				s.Closed = false
				continue
			}
			other := u[0]
			if other == int32(3*i+k) {
				other = u[1]
			}
			oi, ok := other/3, other%3
			if s.corn[oi][ok] != b || s.corn[oi][(ok+1)%3] != a {
				s.Closed = false // same direction: inconsistently wound
				continue
			}
			s.nb[i][k] = oi
		}
	}
}

// normals computes the face normals and the vertices' angle-weighted
// pseudonormals; a vertex on a boundary edge gets none.
func (s *Surface) normals(m *Mesh) {
	s.faceN = make([]mgl64.Vec3, len(m.Tris))
	boundary := make([]bool, len(s.vertN))
	for i := range m.Tris {
		t := m.Triangle(i)
		n := t.Normal()
		if l := n.Len(); l > 0 && !t.Degenerate() {
			n = n.Mul(1 / l)
		} else {
			n = mgl64.Vec3{}
		}
		s.faceN[i] = n
		for k := range 3 {
			if s.nb[i][k] < 0 && s.corn[i][k] != s.corn[i][(k+1)%3] {
				boundary[s.corn[i][k]], boundary[s.corn[i][(k+1)%3]] = true, true
			}
			s.vertN[s.corn[i][k]] = s.vertN[s.corn[i][k]].Add(n.Mul(cornerAngle(t, k)))
		}
	}
	for v, b := range boundary {
		if b {
			s.vertN[v] = mgl64.Vec3{}
		}
	}
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

// side returns the direction that points out of the surface at feature f
// of tree triangle i, and false where the feature is on a boundary (or
// has no direction: a degenerate face).
func (s *Surface) side(i int32, f geom.Feature) (mgl64.Vec3, bool) {
	var n mgl64.Vec3
	if k, ok := f.Edge(); ok {
		o := s.nb[i][k]
		if o < 0 {
			return n, false
		}
		n = s.faceN[i].Add(s.faceN[o])
	} else if k, ok := f.Corner(); ok {
		n = s.vertN[s.corn[i][k]]
	} else {
		n = s.faceN[i]
	}
	return n.Mul(s.flip), n != mgl64.Vec3{}
}

// Behind reports whether p, whose nearest point of the surface is q on
// feature f of tree triangle i, is inside a closed surface or behind an
// open one (false where q is on the boundary).
func (s *Surface) Behind(i int32, f geom.Feature, p, q mgl64.Vec3) bool {
	side, ok := s.side(i, f)
	return ok && p.Sub(q).Dot(side) < 0
}
