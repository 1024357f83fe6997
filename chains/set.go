package chains

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"
)

// maxLinks bounds the links a set's spheres lie on: a link's excluded
// neighbours are a bit mask.
const maxLinks = 64

// Set is a body's spheres: as built (Fits), as they are now (Spheres,
// after Update), and the chains they are tested in.
type Set struct {
	Fits    []Fit
	Spheres []Sphere
	Chains  [][]int32 // sphere indices; see SetChains
	// chainPairs are the distinct pairs the chains test that count.
	chainPairs []Pair
	use        Method
	tris       [][3]int32
	// near[l] has bit k set when spheres on links l and k never count.
	near [maxLinks]uint64
	// Following the pivots: the distinct pivot vertices (slot order), each
	// sphere's pivot triangles as slots, its centre's offset in the
	// pivots' frame and its radius over their mean distance.
	pivotVerts []int32
	slots      [][4][3]int32
	offset     []mgl64.Vec3
	scale      []float64
	pos        []mgl64.Vec3 // scratch: the pivot vertices posed
}

// Poser places the mesh's vertices in the current frame: a skin posed by
// its joints, or rigid links by their transforms.
type Poser interface {
	Vertex(i int32) mgl64.Vec3
}

// exclude marks the link pairs whose spheres never count: a link with
// itself and with its parent.
func (s *Set) exclude(parent []int32) {
	for l := range parent {
		s.near[l] |= 1 << l
		if p := parent[l]; p >= 0 {
			s.near[l] |= 1 << p
			s.near[p] |= 1 << l
		}
	}
}

// Exclude makes spheres on links a and b never count, as adjacent ones.
// Call it before SetChains, which lists the pairs that count.
func (s *Set) Exclude(a, b int32) {
	s.near[a] |= 1 << b
	s.near[b] |= 1 << a
}

// Counts reports whether spheres a and b may count as a self-collision:
// they are not on one link or on a link and its parent.
func (s *Set) Counts(a, b int32) bool {
	return s.near[s.Fits[a].Link]&(1<<s.Fits[b].Link) == 0
}

// ready records how each sphere follows its pivots (section 5.1) and sets
// the spheres to the chosen fit.
func (s *Set) ready(m *Mesh) error {
	slot := map[int32]int32{}
	n := len(s.Fits)
	s.Spheres, s.slots = make([]Sphere, n), make([][4][3]int32, n)
	s.offset, s.scale = make([]mgl64.Vec3, n), make([]float64, n)
	for i, f := range s.Fits {
		for k, t := range f.Pivots {
			for c, v := range m.Tris[t] {
				if _, ok := slot[v]; !ok {
					slot[v] = int32(len(s.pivotVerts))
					s.pivotVerts = append(s.pivotVerts, v)
				}
				s.slots[i][k][c] = slot[v]
			}
		}
	}
	s.pos = make([]mgl64.Vec3, len(s.pivotVerts))
	for j, v := range s.pivotVerts {
		s.pos[j] = m.Verts[v]
	}
	for i, f := range s.Fits {
		sp := f.Sphere[s.use]
		c, frame, spread := s.pivotFrame(i)
		if !(spread > 0) {
			return fmt.Errorf("chains: sphere %d's pivots coincide", i)
		}
		s.offset[i] = frame.Transpose().Mul3x1(sp.C.Sub(c))
		s.scale[i] = sp.R / spread
		s.Spheres[i] = sp
	}
	return nil
}

// pivotFrame returns the mean of sphere i's pivot centroids, a frame the
// pivots carry (identity if they are collinear), and their mean distance
// from that mean.
func (s *Set) pivotFrame(i int) (mgl64.Vec3, mgl64.Mat3, float64) {
	var p [4]mgl64.Vec3
	var c mgl64.Vec3
	for k, tri := range s.slots[i] {
		p[k] = s.pos[tri[0]].Add(s.pos[tri[1]]).Add(s.pos[tri[2]]).Mul(1.0 / 3)
		c = c.Add(p[k])
	}
	c = c.Mul(0.25)
	spread := 0.0
	for k := range p {
		spread += p[k].Sub(c).Len()
	}
	spread /= 4
	e1 := p[0].Sub(p[2])
	e3 := e1.Cross(p[1].Sub(p[3]))
	if e1.Len() == 0 || e3.Len() <= 1e-9*e1.Len()*e1.Len() {
		return c, mgl64.Ident3(), spread
	}
	e1, e3 = e1.Normalize(), e3.Normalize()
	return c, mgl64.Mat3FromCols(e1, e3.Cross(e1), e3), spread
}

// Update moves every sphere with its pivot polygons (section 5.1): its
// centre is the mean of the pivots' centroids plus its offset in their
// frame (zero offset: the paper's rule), its radius their mean distance
// from that mean, scaled as built. Under a rigid motion of the pivots the
// sphere moves rigidly with them. It allocates nothing.
func (s *Set) Update(at Poser) {
	for j, v := range s.pivotVerts {
		s.pos[j] = at.Vertex(v)
	}
	for i := range s.Spheres {
		c, frame, spread := s.pivotFrame(i)
		s.Spheres[i] = Sphere{C: c.Add(frame.Mul3x1(s.offset[i])), R: s.scale[i] * spread}
	}
}
