package handmodel

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/gloved/gloved/geom"
)

// maxSkinVerts bounds a skinned hand's vertices: a rendered hand has a few
// thousand; the bound keeps a malformed file from costing the daemon's
// memory.
const maxSkinVerts = 1 << 20

// Skin is a skinned hand mesh, as VR apps render it (glTF 2.0 skin, linear
// blend skinning): the bind-pose surface, the joints that move it, and for
// each vertex up to four joints with weights summing to 1.
type Skin struct {
	Verts       []mgl64.Vec3 // bind pose, in the skin's world frame
	Tris        [][3]int32
	Joints      []string     // the joints' node names, in the skin's order
	Rest        []mgl64.Mat4 // each joint's world transform in the file's scene
	InverseBind []mgl64.Mat4 // each joint's inverse bind matrix
	Influence   [][4]int32   // a vertex's joints (indices into Joints)
	Weight      [][4]float64 // their weights, summing to 1
}

// SkinPose is a posed skin: caller-owned, reused frame after frame.
type SkinPose struct {
	Verts []mgl64.Vec3
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
func (s *Skin) Vertex(p *SkinPose, v int32) mgl64.Vec3 {
	x := s.Verts[v]
	var out mgl64.Vec3
	for k, j := range s.Influence[v] {
		if w := s.Weight[v][k]; w != 0 {
			out = out.Add(affine(&p.mats[j], x, 1).Mul(w))
		}
	}
	return out
}

// affine applies the affine part of m (a joint's move: world·InverseBind)
// to x taken with weight w: the linear part to x, the translation times w.
func affine(m *mgl64.Mat4, x mgl64.Vec3, w float64) mgl64.Vec3 {
	return mgl64.Vec3{
		m[0]*x[0] + m[4]*x[1] + m[8]*x[2] + m[12]*w,
		m[1]*x[0] + m[5]*x[1] + m[9]*x[2] + m[13]*w,
		m[2]*x[0] + m[6]*x[1] + m[10]*x[2] + m[14]*w,
	}
}

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
	p     mgl64.Vec3
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
func (s *Skin) Place(p *SkinPose, b *Blend) mgl64.Vec3 {
	// affine, summed and written out: the compiler keeps arrays such as
	// mgl64's vectors in memory, and this runs per pivot per frame.
	var ox, oy, oz float64
	for i := range b.terms {
		t := &b.terms[i]
		m, x, w := &p.mats[t.joint], &t.p, t.w
		ox += m[0]*x[0] + m[4]*x[1] + m[8]*x[2] + m[12]*w
		oy += m[1]*x[0] + m[5]*x[1] + m[9]*x[2] + m[13]*w
		oz += m[2]*x[0] + m[6]*x[1] + m[10]*x[2] + m[14]*w
	}
	return mgl64.Vec3{ox, oy, oz}
}

// grow returns s with length n, reusing its storage when it can.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// maxSkinFileBytes bounds a skinned hand's file: a rendered hand is well
// under a megabyte.
const maxSkinFileBytes = 64 << 20

// LoadSkin reads the first skinned mesh of a glTF 2.0 file (.gltf or .glb).
func LoadSkin(path string) (*Skin, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("handmodel: skin: %w", err)
	}
	if st.Size() > maxSkinFileBytes {
		return nil, fmt.Errorf("handmodel: skin %s: %d bytes, more than a skinned hand's %d", path, st.Size(), maxSkinFileBytes)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("handmodel: skin: %w", err)
	}
	s, err := ReadSkin(b, os.DirFS(filepath.Dir(path)))
	if err != nil {
		return nil, fmt.Errorf("handmodel: skin %s: %w", path, err)
	}
	return s, nil
}

// ReadSkin reads the first skinned mesh of a glTF 2.0 document (GLB, or
// JSON whose external buffers are read from fsys). Every accessor is
// checked against its buffer before it is read, so a malformed accessor is
// an error, never a large allocation.
func ReadSkin(b []byte, fsys fs.FS) (*Skin, error) {
	if err := checkGLB(b); err != nil {
		return nil, err
	}
	doc := new(gltf.Document)
	if err := gltf.NewDecoderFS(bytes.NewReader(b), fsys).Decode(doc); err != nil {
		return nil, fmt.Errorf("not glTF: %w", err)
	}
	node, err := skinnedNode(doc)
	if err != nil {
		return nil, err
	}
	world, err := worldTransforms(doc)
	if err != nil {
		return nil, err
	}
	s := &Skin{}
	if err := s.readJoints(doc, doc.Skins[*node.Skin], world); err != nil {
		return nil, err
	}
	for i, p := range doc.Meshes[*node.Mesh].Primitives {
		if err := s.readPrimitive(doc, p); err != nil {
			return nil, fmt.Errorf("mesh %d primitive %d: %w", *node.Mesh, i, err)
		}
	}
	if len(s.Tris) == 0 {
		return nil, errors.New("the skinned mesh has no triangles")
	}
	return s, nil
}

// checkGLB checks a GLB's chunk lengths against the bytes there are: the
// library allocates a binary buffer by its declared length before reading
// it. Other input (glTF JSON) passes.
func checkGLB(b []byte) error {
	if len(b) < 4 || string(b[:4]) != "glTF" {
		return nil
	}
	const header, chunk = 12, 8
	if len(b) < header+chunk {
		return errors.New("not glTF: a GLB shorter than its header")
	}
	rest := b[header:]
	for rest := rest; len(rest) > 0; {
		if len(rest) < chunk {
			return errors.New("not glTF: a GLB chunk header runs past the file")
		}
		n := uint64(binary.LittleEndian.Uint32(rest))
		if n > uint64(len(rest)-chunk) {
			return fmt.Errorf("not glTF: a GLB chunk of %d bytes runs past the file", n)
		}
		rest = rest[chunk+int(n):]
	}
	return nil
}

// skinnedNode returns the first node with both a mesh and a skin.
func skinnedNode(doc *gltf.Document) (*gltf.Node, error) {
	for _, n := range doc.Nodes {
		if n.Mesh == nil || n.Skin == nil {
			continue
		}
		if *n.Mesh < 0 || *n.Mesh >= len(doc.Meshes) || *n.Skin < 0 || *n.Skin >= len(doc.Skins) {
			return nil, fmt.Errorf("node %q names a mesh or skin that does not exist", n.Name)
		}
		return n, nil
	}
	return nil, errors.New("no skinned mesh (a node with both a mesh and a skin)")
}

// worldTransforms returns every node's world transform: its parents'
// local transforms composed down from the roots. A node with two parents,
// or a cycle, is an error.
func worldTransforms(doc *gltf.Document) ([]mgl64.Mat4, error) {
	parent := make([]int, len(doc.Nodes))
	for i := range parent {
		parent[i] = -1
	}
	for i, n := range doc.Nodes {
		for _, c := range n.Children {
			if c < 0 || c >= len(doc.Nodes) || parent[c] >= 0 || c == i {
				return nil, fmt.Errorf("node %d: child %d is out of range or has two parents", i, c)
			}
			parent[c] = i
		}
	}
	world := make([]mgl64.Mat4, len(doc.Nodes))
	done := make([]bool, len(doc.Nodes))
	var place func(i, depth int) error
	place = func(i, depth int) error {
		if done[i] {
			return nil
		}
		if depth > len(doc.Nodes) {
			return errors.New("the node graph has a cycle")
		}
		local := localTransform(doc.Nodes[i])
		if p := parent[i]; p >= 0 {
			if err := place(p, depth+1); err != nil {
				return err
			}
			local = world[p].Mul4(local)
		}
		world[i], done[i] = local, true
		return nil
	}
	for i := range doc.Nodes {
		if err := place(i, 0); err != nil {
			return nil, err
		}
	}
	return world, nil
}

// localTransform is a node's matrix, or its translation, rotation and
// scale composed (glTF 2.0 section 5.25).
func localTransform(n *gltf.Node) mgl64.Mat4 {
	if n.Matrix != gltf.DefaultMatrix && n.Matrix != [16]float64{} {
		return mgl64.Mat4(n.Matrix)
	}
	t, r, s := n.TranslationOrDefault(), n.RotationOrDefault(), n.ScaleOrDefault()
	q := mgl64.Quat{W: r[3], V: mgl64.Vec3{r[0], r[1], r[2]}}
	if l := q.Len(); l > 0 {
		q = q.Scale(1 / l)
	}
	return mgl64.Translate3D(t[0], t[1], t[2]).Mul4(q.Mat4()).Mul4(mgl64.Scale3D(s[0], s[1], s[2]))
}

// readJoints takes the skin's joint names, rest transforms and inverse
// bind matrices (the identity where the file gives none).
func (s *Skin) readJoints(doc *gltf.Document, sk *gltf.Skin, world []mgl64.Mat4) error {
	if len(sk.Joints) == 0 {
		return errors.New("the skin has no joints")
	}
	for _, j := range sk.Joints {
		if j < 0 || j >= len(doc.Nodes) {
			return fmt.Errorf("the skin names joint node %d, which does not exist", j)
		}
		if !affineMat(world[j]) {
			return fmt.Errorf("joint %q: its node's matrix is not affine (glTF wants the last row 0 0 0 1)", doc.Nodes[j].Name)
		}
		s.Joints = append(s.Joints, doc.Nodes[j].Name)
		s.Rest = append(s.Rest, world[j])
	}
	if sk.InverseBindMatrices == nil {
		for range sk.Joints {
			s.InverseBind = append(s.InverseBind, mgl64.Ident4())
		}
		return nil
	}
	acr, err := checkedAccessor(doc, *sk.InverseBindMatrices, len(sk.Joints), len(sk.Joints))
	if err != nil {
		return fmt.Errorf("inverse bind matrices: %w", err)
	}
	ibm, err := modeler.ReadInverseBindMatrices(doc, acr, nil)
	if err != nil {
		return fmt.Errorf("inverse bind matrices: %w", err)
	}
	for _, m := range ibm {
		// The library's [4][4] is indexed [row][column].
		var x mgl64.Mat4
		for c := range 4 {
			for r := range 4 {
				x[4*c+r] = float64(m[r][c])
			}
		}
		if !finiteMat(x) {
			return errors.New("inverse bind matrices: a value is not finite")
		}
		if !affineMat(x) {
			return fmt.Errorf("inverse bind matrix %d is not affine (glTF wants the last row 0 0 0 1)", len(s.InverseBind))
		}
		s.InverseBind = append(s.InverseBind, x)
	}
	return nil
}

// readPrimitive appends a triangle primitive's vertices, influences and
// triangles.
func (s *Skin) readPrimitive(doc *gltf.Document, p *gltf.Primitive) error {
	if p.Mode != gltf.PrimitiveTriangles {
		return fmt.Errorf("mode %v: only triangles are read", p.Mode)
	}
	need := func(name string) (int, error) {
		i, ok := p.Attributes[name]
		if !ok {
			return 0, fmt.Errorf("no %s", name)
		}
		return i, nil
	}
	pi, err := need(gltf.POSITION)
	if err != nil {
		return err
	}
	ji, err := need(gltf.JOINTS_0)
	if err != nil {
		return err
	}
	wi, err := need(gltf.WEIGHTS_0)
	if err != nil {
		return err
	}
	pos, err := readVec3s(doc, pi)
	if err != nil {
		return fmt.Errorf("POSITION: %w", err)
	}
	n := len(pos)
	if len(s.Verts)+n > maxSkinVerts {
		return fmt.Errorf("more than %d vertices", maxSkinVerts)
	}
	if err := s.readInfluences(doc, ji, wi, n); err != nil {
		return err
	}
	base := int32(len(s.Verts))
	s.Verts = append(s.Verts, pos...)
	return s.readTriangles(doc, p, base, n)
}

// readVec3s reads a VEC3 float accessor, every value finite.
func readVec3s(doc *gltf.Document, i int) ([]mgl64.Vec3, error) {
	acr, err := checkedAccessor(doc, i, 1, maxSkinVerts)
	if err != nil {
		return nil, err
	}
	raw, err := modeler.ReadPosition(doc, acr, nil)
	if err != nil {
		return nil, err
	}
	out := make([]mgl64.Vec3, len(raw))
	for k, v := range raw {
		out[k] = mgl64.Vec3{float64(v[0]), float64(v[1]), float64(v[2])}
		if !geom.Finite3(out[k]) {
			return nil, fmt.Errorf("vertex %d is not finite", k)
		}
	}
	return out, nil
}

// readInfluences reads n vertices' joints and weights: joints within the
// skin, weights finite and not negative, normalised to sum 1.
func (s *Skin) readInfluences(doc *gltf.Document, ji, wi, n int) error {
	jacr, err := checkedAccessor(doc, ji, n, n)
	if err != nil {
		return fmt.Errorf("JOINTS_0: %w", err)
	}
	wacr, err := checkedAccessor(doc, wi, n, n)
	if err != nil {
		return fmt.Errorf("WEIGHTS_0: %w", err)
	}
	joints, err := modeler.ReadJoints(doc, jacr, nil)
	if err != nil {
		return fmt.Errorf("JOINTS_0: %w", err)
	}
	weights, err := modeler.ReadWeights(doc, wacr, nil)
	if err != nil {
		return fmt.Errorf("WEIGHTS_0: %w", err)
	}
	for v := range n {
		var inf [4]int32
		var w [4]float64
		sum := 0.0
		for k := range 4 {
			wk := float64(weights[v][k])
			if !(wk >= 0) || math.IsInf(wk, 0) {
				return fmt.Errorf("WEIGHTS_0: vertex %d weight %d is %v", v, k, wk)
			}
			if wk > 0 && int(joints[v][k]) >= len(s.Joints) {
				return fmt.Errorf("JOINTS_0: vertex %d names joint %d of %d", v, joints[v][k], len(s.Joints))
			}
			inf[k], w[k] = int32(joints[v][k]), wk
			sum += wk
		}
		if !(sum > 0) {
			return fmt.Errorf("WEIGHTS_0: vertex %d has no weight", v)
		}
		for k := range w {
			w[k] /= sum
			if w[k] == 0 {
				inf[k] = 0 // a joint with no weight need not exist
			}
		}
		s.Influence, s.Weight = append(s.Influence, inf), append(s.Weight, w)
	}
	return nil
}

// readTriangles appends a primitive's triangles (indexed or not), their
// corners offset by base, each within the primitive's n vertices.
func (s *Skin) readTriangles(doc *gltf.Document, p *gltf.Primitive, base int32, n int) error {
	var idx []uint32
	if p.Indices == nil {
		for k := range n {
			idx = append(idx, uint32(k))
		}
	} else {
		acr, err := checkedAccessor(doc, *p.Indices, 3, 3*maxSkinVerts)
		if err != nil {
			return fmt.Errorf("indices: %w", err)
		}
		if idx, err = modeler.ReadIndices(doc, acr, nil); err != nil {
			return fmt.Errorf("indices: %w", err)
		}
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

// checkedAccessor returns accessor i after checking that it lies within
// its buffer view and buffer, and that its count is between lo and hi,
// before the library allocates its count's worth.
func checkedAccessor(doc *gltf.Document, i, lo, hi int) (*gltf.Accessor, error) {
	if i < 0 || i >= len(doc.Accessors) {
		return nil, fmt.Errorf("accessor %d does not exist", i)
	}
	a := doc.Accessors[i]
	if a.Count < lo || a.Count > hi {
		return nil, fmt.Errorf("accessor %d has %d elements, want %d to %d", i, a.Count, lo, hi)
	}
	if a.Sparse != nil {
		return nil, fmt.Errorf("accessor %d is sparse, which a skin does not need", i)
	}
	if a.BufferView == nil || *a.BufferView < 0 || *a.BufferView >= len(doc.BufferViews) {
		return nil, fmt.Errorf("accessor %d has no buffer view", i)
	}
	v := doc.BufferViews[*a.BufferView]
	if v.Buffer < 0 || v.Buffer >= len(doc.Buffers) {
		return nil, fmt.Errorf("buffer view %d names buffer %d, which does not exist", *a.BufferView, v.Buffer)
	}
	data := len(doc.Buffers[v.Buffer].Data)
	size := a.ComponentType.ByteSize() * a.Type.Components()
	stride := max(v.ByteStride, size)
	end := int64(a.ByteOffset) + int64(a.Count-1)*int64(stride) + int64(size)
	if size == 0 || v.ByteOffset < 0 || a.ByteOffset < 0 || end > int64(v.ByteLength) || int64(v.ByteOffset)+int64(v.ByteLength) > int64(data) {
		return nil, fmt.Errorf("accessor %d runs past its buffer", i)
	}
	return a, nil
}

// affineMat reports whether m's last row is 0 0 0 1, to float32 rounding:
// skinning applies joint moves as affine maps.
func affineMat(m mgl64.Mat4) bool {
	const tol = 1e-6
	return math.Abs(m[3]) <= tol && math.Abs(m[7]) <= tol && math.Abs(m[11]) <= tol && math.Abs(m[15]-1) <= tol
}

// finiteMat reports whether every entry of m is finite.
func finiteMat(m mgl64.Mat4) bool {
	for _, x := range m {
		if !geom.Finite(x) {
			return false
		}
	}
	return true
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
		fmt.Fprintf(bw, "v %.6f %.6f %.6f\n", v[0], v[1], v[2])
	}
	for _, t := range s.Tris {
		fmt.Fprintf(bw, "f %d %d %d\n", base+int(t[0]), base+int(t[1]), base+int(t[2]))
	}
	return bw.Flush()
}
