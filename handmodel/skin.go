package handmodel

import (
	"bufio"
	"fmt"
	"io"
	"slices"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// Skin is a skinned hand mesh, as VR apps render it (glTF 2.0 skin, linear
// blend skinning): the bind-pose surface, the joints that move it, and for
// each vertex up to four joints with weights summing to 1.
type Skin struct {
	Verts       []geom.Vec3 // bind pose, in the skin's world frame
	Tris        [][3]int32
	Joints      []string     // the joints' node names, in the skin's order
	Rest        []mgl64.Mat4 // each joint's world transform in the file's scene
	InverseBind []mgl64.Mat4 // each joint's inverse bind matrix
	Influence   [][4]int32   // a vertex's joints (indices into Joints)
	Weight      [][4]float64 // their weights, summing to 1
}

// SkinPose is a posed skin: caller-owned, reused frame after frame.
type SkinPose struct {
	Verts []geom.Vec3
	mats  []mgl64.Mat4
}

// Pose places the skin's vertices for the joints' world transforms world
// (one per joint): each vertex is the weighted sum of its joints' moves,
// world·InverseBind. It allocates nothing once p has been used.
func (s *Skin) Pose(world []mgl64.Mat4, p *SkinPose) error {
	if err := s.SetJoints(world, p); err != nil {
		return err
	}
	p.Verts = grow(p.Verts, len(s.Verts))
	for v := range s.Verts {
		p.Verts[v] = s.Vertex(p, int32(v))
	}
	return nil
}

// SetJoints readies p to place vertices for the joints' world transforms
// world, without placing any: Vertex then places one at a time, for a
// caller that needs a few (the sphere chains' pivots). It allocates
// nothing once p has been used.
func (s *Skin) SetJoints(world []mgl64.Mat4, p *SkinPose) error {
	if len(world) != len(s.Joints) {
		return fmt.Errorf("handmodel: skin pose: %d joint transforms for %d joints", len(world), len(s.Joints))
	}
	p.mats = grow(p.mats, len(world))
	for j := range world {
		p.mats[j] = mul4(&world[j], &s.InverseBind[j])
	}
	return nil
}

// Vertex returns vertex v placed by the joints p was last set to.
func (s *Skin) Vertex(p *SkinPose, v int32) geom.Vec3 {
	x := s.Verts[v]
	var out geom.Vec3
	for k, j := range s.Influence[v] {
		if w := s.Weight[v][k]; w != 0 {
			m := &p.mats[j]
			out = out.Add(linear(m, x).Add(translation(m)).Mul(w))
		}
	}
	return out
}

// linear applies the linear part of the affine matrix m (a joint's move:
// world·InverseBind) to x, summed as the first three terms of mgl64's
// Mul4x1; translation is m's translation. Apart, each is small enough for
// the compiler to inline into the blend loops.
func linear(m *mgl64.Mat4, x geom.Vec3) geom.Vec3 {
	return geom.Vec3{
		X: m[0]*x.X + m[4]*x.Y + m[8]*x.Z,
		Y: m[1]*x.X + m[5]*x.Y + m[9]*x.Z,
		Z: m[2]*x.X + m[6]*x.Y + m[10]*x.Z,
	}
}

func translation(m *mgl64.Mat4) geom.Vec3 { return geom.Vec3{X: m[12], Y: m[13], Z: m[14]} }

// Blend is a fixed affine combination of skin vertices, such as a
// triangle's centroid, placed as its vertices are: since skinning is
// linear in the vertex, the combination Σ c_v·skin(x_v) is
// Σ_j M_j·(Σ_v c_v w_vj x_v, Σ_v c_v w_vj), one joint move per joint its
// vertices ride on, however many vertices it blends.
type Blend struct{ terms []blendTerm }

// blendTerm is one joint's share of a blend: its move applied to p, with
// its translation weighted by w.
type blendTerm struct {
	joint int32
	p     geom.Vec3
	w     float64
}

// Blend compiles the combination of vertices verts with coefficients coef
// (summing to 1 for a point).
func (s *Skin) Blend(verts []int32, coef []float64) Blend {
	var b Blend
	for i, v := range verts {
		for k, j := range s.Influence[v] {
			w := coef[i] * s.Weight[v][k]
			if w == 0 {
				continue
			}
			t := slices.IndexFunc(b.terms, func(t blendTerm) bool { return t.joint == j })
			if t < 0 {
				b.terms = append(b.terms, blendTerm{joint: j})
				t = len(b.terms) - 1
			}
			b.terms[t].p = b.terms[t].p.Add(s.Verts[v].Mul(w))
			b.terms[t].w += w
		}
	}
	return b
}

// Place returns blend b placed by the joints p was last set to.
func (s *Skin) Place(p *SkinPose, b *Blend) geom.Vec3 {
	var out geom.Vec3
	for i := range b.terms {
		t := &b.terms[i]
		m := &p.mats[t.joint]
		out = out.Add(linear(m, t.p).Add(translation(m).Mul(t.w)))
	}
	return out
}

// grow returns s with length n, reusing its storage when it can.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// WriteOBJ writes posed skin p as OBJ object name, its vertices numbered
// from base (1 for a file of its own; OBJ numbers vertices file-wide).
func (s *Skin) WriteOBJ(w io.Writer, p *SkinPose, name string, base int) error {
	if len(p.Verts) != len(s.Verts) {
		return fmt.Errorf("handmodel: skin OBJ: the pose has %d vertices, the skin %d", len(p.Verts), len(s.Verts))
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "o %s\n", name)
	for _, v := range p.Verts {
		fmt.Fprintf(bw, "v %.6f %.6f %.6f\n", v.X, v.Y, v.Z)
	}
	for _, t := range s.Tris {
		fmt.Fprintf(bw, "f %d %d %d\n", base+int(t[0]), base+int(t[1]), base+int(t[2]))
	}
	return bw.Flush()
}
