package handmodel

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/gloved/gloved/geom"
)

// webxrHand is the WebXR generic hand (MIT, see its README and LICENSE
// beside it).
func webxrHand(t testing.TB, side string) *Skin {
	t.Helper()
	s, err := LoadSkin(filepath.Join("testdata", "webxr-generic-hand", side+".glb"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// webxrJoints is the WebXR Hand Input joint list without the palm.
var webxrJoints = func() []string {
	out := []string{"wrist", "thumb-metacarpal", "thumb-phalanx-proximal", "thumb-phalanx-distal", "thumb-tip"}
	for _, f := range []string{"index", "middle", "ring", "pinky"} {
		for _, j := range []string{"metacarpal", "phalanx-proximal", "phalanx-intermediate", "phalanx-distal", "tip"} {
			out = append(out, f+"-finger-"+j)
		}
	}
	return out
}()

// TestWebXRHandLoads: both hands read as the asset's README says: 1,360
// vertices, 2,314 triangles, the 25 WebXR joints (the left file lists them
// in another order); every vertex's weights
// sum to 1 over joints of the skin.
func TestWebXRHandLoads(t *testing.T) {
	for _, side := range []string{"right", "left"} {
		s := webxrHand(t, side)
		if len(s.Verts) != 1360 || len(s.Tris) != 2314 {
			t.Errorf("%s: %d vertices and %d triangles, want 1360 and 2314", side, len(s.Verts), len(s.Tris))
		}
		if got := slices.Sorted(slices.Values(s.Joints)); !slices.Equal(got, slices.Sorted(slices.Values(webxrJoints))) {
			t.Errorf("%s: joints %v, want %v", side, s.Joints, webxrJoints)
		}
		for v, w := range s.Weight {
			if sum := w[0] + w[1] + w[2] + w[3]; math.Abs(sum-1) > 1e-12 {
				t.Fatalf("%s: vertex %d weights sum to %v", side, v, sum)
			}
		}
	}
}

// TestSkinBindPoseIsTheFilesMesh: each joint's rest transform in the
// file's scene is the inverse of its inverse bind matrix, so posing the
// skin at rest reproduces the file's vertices.
func TestSkinBindPoseIsTheFilesMesh(t *testing.T) {
	s := webxrHand(t, "right")
	for j := range s.Joints {
		// The file stores float32: the identity to within its rounding.
		for k, x := range s.Rest[j].Mul4(s.InverseBind[j]).Sub(mgl64.Ident4()) {
			if math.Abs(x) > 1e-6 {
				t.Fatalf("joint %s: rest times inverse bind is off the identity by %g at %d", s.Joints[j], x, k)
			}
		}
	}
	var p SkinPose
	if err := s.Pose(s.Rest, &p); err != nil {
		t.Fatal(err)
	}
	for v := range s.Verts {
		if d := p.Verts[v].Sub(s.Verts[v]).Len(); d > 1e-6 {
			t.Fatalf("vertex %d is %g m from the file's", v, d)
		}
	}
}

// TestSkinPoseFollowsItsJoints: turning the index finger's distal joint
// about its own origin moves a vertex bound to it alone on the circle the
// joint says, leaves vertices of other joints where they were, and blends
// a shared vertex by its weights.
func TestSkinPoseFollowsItsJoints(t *testing.T) {
	s := webxrHand(t, "right")
	j := slices.Index(s.Joints, "index-finger-phalanx-distal")
	world := slices.Clone(s.Rest)
	origin := geom.FromMgl(s.Rest[j].Col(3).Vec3())
	turn := mgl64.Translate3D(origin.X, origin.Y, origin.Z).
		Mul4(mgl64.HomogRotate3D(0.6, s.Rest[j].Col(0).Vec3().Normalize())).
		Mul4(mgl64.Translate3D(-origin.X, -origin.Y, -origin.Z))
	world[j] = turn.Mul4(s.Rest[j])
	var p SkinPose
	if err := s.Pose(world, &p); err != nil {
		t.Fatal(err)
	}
	alone, others, shared := 0, 0, 0
	for v, x := range s.Verts {
		w := 0.0
		for k, i := range s.Influence[v] {
			if int(i) == j {
				w += s.Weight[v][k]
			}
		}
		want := x.Mul(1 - w).Add(geom.FromMgl(mgl64.TransformCoordinate(x.Mgl(), turn)).Mul(w))
		if d := p.Verts[v].Sub(want).Len(); d > 1e-6 {
			t.Fatalf("vertex %d (weight %v on the joint) is %g m from where the blend puts it", v, w, d)
		}
		switch {
		case w == 1:
			alone++
			if r0, r1 := x.Sub(origin).Len(), p.Verts[v].Sub(origin).Len(); math.Abs(r0-r1) > 1e-6 {
				t.Fatalf("vertex %d left its circle about the joint: %v -> %v", v, r0, r1)
			}
		case w == 0:
			others++
		default:
			shared++
		}
	}
	if alone == 0 || others == 0 || shared == 0 {
		t.Errorf("%d vertices on the joint alone, %d on others, %d shared: want some of each", alone, others, shared)
	}
}

// TestSkinPoseAllocatesNothing: a reused SkinPose poses without
// allocating, as the frame loop needs.
func TestSkinPoseAllocatesNothing(t *testing.T) {
	s := webxrHand(t, "right")
	var p SkinPose
	s.Pose(s.Rest, &p)
	if n := testing.AllocsPerRun(10, func() { s.Pose(s.Rest, &p) }); n != 0 {
		t.Errorf("Pose allocated %v times per run", n)
	}
}

// TestSkinRefusesMalformedFiles: each way a skinned glTF can be unusable
// or hostile is an error naming it, never a panic or an allocation the
// file's bytes do not bound.
func TestSkinRefusesMalformedFiles(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "webxr-generic-hand", "right.glb"))
	if err != nil {
		t.Fatal(err)
	}
	const ibm, joints, weights, indices = 6, 3, 4, 5 // accessors of the right hand
	edit := func(f func(d *gltf.Document)) []byte { return editGLB(t, "right", f) }
	tests := []struct {
		name string
		file []byte
		says string
	}{
		{"not glTF", []byte("hello"), "not glTF: glTF JSON: invalid character"},
		{"truncated", good[:len(good)/2], "not glTF: truncated GLB"},
		{"no skin", edit(func(d *gltf.Document) { d.Nodes[25].Skin = nil }), "no skinned mesh"},
		{"no weights", edit(func(d *gltf.Document) { delete(d.Meshes[0].Primitives[0].Attributes, gltf.WEIGHTS_0) }), "no WEIGHTS_0"},
		{"a joint index past the skin", edit(func(d *gltf.Document) {
			d.Skins[0].Joints, d.Skins[0].InverseBindMatrices = d.Skins[0].Joints[:3], nil
		}), "JOINTS_0: vertex"},
		{"a joint index past the skin's 25", edit(func(d *gltf.Document) { copy(accessorBytes(d, joints), []byte{200, 200, 200, 200}) }),
			"JOINTS_0: vertex 0 names joint 200 of 25"},
		{"a NaN weight", edit(func(d *gltf.Document) { binary.LittleEndian.PutUint32(accessorBytes(d, weights), 0x7fc00000) }),
			"WEIGHTS_0: vertex 0 weight 0 is NaN"},
		{"a NaN vertex", edit(func(d *gltf.Document) { binary.LittleEndian.PutUint32(accessorBytes(d, 0)[12:], 0x7f800000) }),
			"POSITION: vertex 1 is not finite"},
		{"a NaN inverse bind matrix", edit(func(d *gltf.Document) { binary.LittleEndian.PutUint32(accessorBytes(d, ibm)[64:], 0x7fc00000) }),
			"inverse bind matrices: matrix 1: a value is not finite"},
		{"an accessor longer than its buffer", edit(func(d *gltf.Document) { d.Accessors[0].Count = 1 << 19 }),
			"POSITION: accessor 0: count 524288 needs 6.3 MB, buffer view 0 holds 16.3 kB"},
		{"2^31-1 joints", edit(func(d *gltf.Document) { d.Accessors[joints].Count = 1<<31 - 1 }), "JOINTS_0: accessor 3: count 2147483647 needs 8.6 GB"},
		{"2^31-1 indices", edit(func(d *gltf.Document) { d.Accessors[indices].Count = 1<<31 - 1 }), "indices: accessor 5: count 2147483647 needs 4.3 GB"},
		{"2^28 inverse bind matrices", edit(func(d *gltf.Document) { d.Accessors[ibm].Count = 1 << 28 }), "inverse bind matrices: accessor 6: count 268435456 needs 17.2 GB"},
		{"inverse bind matrices for fewer joints", edit(func(d *gltf.Document) { d.Accessors[ibm].Count = 3 }), "inverse bind matrices: accessor 6 has 3, for 25 joints"},
		{"weights of another type", edit(func(d *gltf.Document) { d.Accessors[weights].Type = gltf.AccessorVec3 }), "WEIGHTS_0: accessor 4: WEIGHTS_0 is VEC3"},
		{"joints as floats", edit(func(d *gltf.Document) { d.Accessors[joints].ComponentType = gltf.ComponentFloat }), "JOINTS_0 is VEC4 of component type 5126"},
		{"fewer weights than vertices", edit(func(d *gltf.Document) { d.Accessors[weights].Count = 10 }), "WEIGHTS_0: accessor 4 has 10 elements for 1360 vertices"},
		{"2,000 joints", edit(func(d *gltf.Document) {
			d.Skins[0].Joints, d.Skins[0].InverseBindMatrices = slices.Repeat(d.Skins[0].Joints, 80), nil
		}), "the skin has 2000 joints, want 1 to 1024"},
		{"a joint node that does not exist", edit(func(d *gltf.Document) { d.Skins[0].Joints[2] = 99 }), "joint node 99, which does not exist"},
		{"a joint with two parents", edit(func(d *gltf.Document) {
			d.Nodes[26].Children = append(d.Nodes[26].Children, d.Skins[0].Joints[3])
		}), "appears twice in the node graph"},
		{"a joint on a cycle", edit(func(d *gltf.Document) {
			j := d.Skins[0].Joints[1]
			for _, n := range d.Nodes {
				n.Children = slices.DeleteFunc(n.Children, func(c int) bool { return c == j })
			}
			d.Nodes[j].Children = append(d.Nodes[j].Children, j)
		}), "its node is on a cycle of the node graph"},
		{"a projective joint matrix", edit(func(d *gltf.Document) {
			d.Nodes[d.Skins[0].Joints[1]].Matrix = [16]float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0.5, 0, 0, 0, 1}
		}), "not affine"},
		{"points, not triangles", edit(func(d *gltf.Document) { d.Meshes[0].Primitives[0].Mode = gltf.PrimitivePoints }), "mode 0: only triangles"},
		{"a buffer in another file", []byte(`{"asset":{"version":"2.0"},"buffers":[{"uri":"hand.bin","byteLength":8}]}`),
			"only data: URIs and files beside the document are read"},
	}
	for _, tc := range tests {
		_, err := ReadSkin(tc.file, nil)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: got %v, want an error saying %q", tc.name, err, tc.says)
		}
	}
}

// TestLoadSkinRefusesAFilePastItsBound: a file larger than a skinned hand
// can be is refused before it is read.
func TestLoadSkinRefusesAFilePastItsBound(t *testing.T) {
	huge := filepath.Join(t.TempDir(), "huge.glb")
	if f, err := os.Create(huge); err != nil {
		t.Fatal(err)
	} else if err := f.Truncate(maxSkinFileBytes + 1); err != nil { // sparse: no disk used
		t.Fatal(err)
	} else {
		f.Close()
	}
	if _, err := LoadSkin(huge); err == nil || !strings.Contains(err.Error(), "too big for a skinned hand") {
		t.Errorf("a file past the size bound: got %v", err)
	}
}

// editGLB is a shipped hand's GLB after edit.
func editGLB(t *testing.T, side string, edit func(d *gltf.Document)) []byte {
	t.Helper()
	doc, err := gltf.Open(filepath.Join("testdata", "webxr-generic-hand", side+".glb"))
	if err != nil {
		t.Fatal(err)
	}
	edit(doc)
	path := filepath.Join(t.TempDir(), "edited.glb")
	if err := gltf.SaveBinary(doc, path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// accessorBytes is the buffer from accessor a's first element on.
func accessorBytes(d *gltf.Document, a int) []byte {
	acc := d.Accessors[a]
	v := d.BufferViews[*acc.BufferView]
	return d.Buffers[v.Buffer].Data[v.ByteOffset+acc.ByteOffset:]
}

// FuzzReadSkin: no input makes ReadSkin panic, and what it accepts poses.
// The seed is a one-triangle skin of two joints in under 2 kB: mutations
// of the 94 kB hands find new coverage in the first seconds, and the
// fuzzer then spends its run minimising them.
func FuzzReadSkin(f *testing.F) {
	f.Add(tinySkinGLB(f))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ReadSkin(b, nil)
		if err != nil {
			return
		}
		var p SkinPose
		if err := s.Pose(s.Rest, &p); err != nil {
			t.Fatal(err)
		}
	})
}

// tinySkinGLB is a GLB of one triangle skinned to two joints, a wrist
// and a tip 10 cm along its -Z, written by qmuntal/gltf.
func tinySkinGLB(t testing.TB) []byte {
	doc := gltf.NewDocument()
	attr := gltf.PrimitiveAttributes{
		gltf.POSITION:  modeler.WritePosition(doc, [][3]float32{{0, 0, 0}, {0.01, 0, -0.1}, {-0.01, 0, -0.1}}),
		gltf.JOINTS_0:  modeler.WriteJoints(doc, [][4]uint8{{0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}}),
		gltf.WEIGHTS_0: modeler.WriteWeights(doc, [][4]float32{{1, 0, 0, 0}, {1, 0, 0, 0}, {0.5, 0.5, 0, 0}}),
	}
	// The library's matrices are [row][column]: the tip's inverse bind
	// matrix moves it 10 cm back along +Z.
	ibm := modeler.WriteInverseBindMatrices(doc, [][4][4]float32{
		{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}},
		{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0.1}, {0, 0, 0, 1}},
	})
	doc.Meshes = []*gltf.Mesh{{Primitives: []*gltf.Primitive{{Attributes: attr, Indices: gltf.Index(modeler.WriteIndices(doc, []uint16{0, 1, 2}))}}}}
	doc.Nodes = []*gltf.Node{{Name: "wrist", Children: []int{1}}, {Name: "tip", Translation: [3]float64{0, 0, -0.1}}, {Name: "hand", Mesh: gltf.Index(0), Skin: gltf.Index(0)}}
	doc.Skins = []*gltf.Skin{{Joints: []int{0, 1}, InverseBindMatrices: gltf.Index(ibm)}}
	doc.Scenes[0].Nodes = []int{0, 2}
	var b bytes.Buffer
	if err := gltf.NewEncoder(&b).Encode(doc); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestTinySkinReads: the fuzz seed is a skin ReadSkin reads, its tip
// joint 10 cm along -Z at rest.
func TestTinySkinReads(t *testing.T) {
	b := tinySkinGLB(t)
	s, err := ReadSkin(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 2048 || len(s.Verts) != 3 || len(s.Tris) != 1 || !slices.Equal(s.Joints, []string{"wrist", "tip"}) {
		t.Errorf("%d bytes, %d vertices, %d triangles, joints %v: want under 2 kB, 3, 1, [wrist tip]", len(b), len(s.Verts), len(s.Tris), s.Joints)
	}
	for k, x := range s.Rest[1].Mul4(s.InverseBind[1]).Sub(mgl64.Ident4()) {
		if math.Abs(x) > 1e-6 {
			t.Fatalf("the tip's rest times its inverse bind matrix is off the identity by %g at %d", x, k)
		}
	}
}

// TestWebXRBonesRunAlongMinusZ: in the WebXR hand each finger joint's
// next joint lies along the joint's -Z axis (the OpenXR hand-joint
// convention: -Z toward the fingertip), within 8 degrees; posing the skin
// from the glove's angles relies on it.
func TestWebXRBonesRunAlongMinusZ(t *testing.T) {
	for _, side := range []string{"right", "left"} {
		s := webxrHand(t, side)
		chains := [][]string{{"thumb-metacarpal", "thumb-phalanx-proximal", "thumb-phalanx-distal", "thumb-tip"}}
		for _, f := range []string{"index", "middle", "ring", "pinky"} {
			var c []string
			for _, j := range []string{"metacarpal", "phalanx-proximal", "phalanx-intermediate", "phalanx-distal", "tip"} {
				c = append(c, f+"-finger-"+j)
			}
			chains = append(chains, c)
		}
		for _, c := range chains {
			for k := 0; k+1 < len(c); k++ {
				a, b := slices.Index(s.Joints, c[k]), slices.Index(s.Joints, c[k+1])
				bone := s.Rest[b].Col(3).Vec3().Sub(s.Rest[a].Col(3).Vec3())
				local := s.Rest[a].Inv().Mul4x1(bone.Vec4(0)).Vec3().Normalize()
				if local[2] > -0.99 {
					t.Errorf("%s %s -> %s: the bone runs along %v in the joint's frame, want -Z", side, c[k], c[k+1], local)
				}
			}
		}
	}
}

// TestBlendIsTheCombinationOfItsVertices: a compiled blend (a triangle's
// centroid, or any affine combination) placed by the joints is the same
// combination of its vertices placed one by one, at random joint moves.
func TestBlendIsTheCombinationOfItsVertices(t *testing.T) {
	s := webxrHand(t, "right")
	r := rand.New(rand.NewPCG(12, 12))
	world := make([]mgl64.Mat4, len(s.Joints))
	var p SkinPose
	for range 50 {
		for j := range world {
			axis := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
			world[j] = mgl64.Translate3D(0.1*r.NormFloat64(), 0.1*r.NormFloat64(), 0.1*r.NormFloat64()).Mul4(mgl64.HomogRotate3D(r.Float64()*6, axis.Mgl())).Mul4(s.Rest[j])
		}
		if err := s.Pose(world, &p); err != nil {
			t.Fatal(err)
		}
		tri := s.Tris[r.IntN(len(s.Tris))]
		coef := []float64{r.Float64(), r.Float64(), 0}
		coef[2] = 1 - coef[0] - coef[1]
		b := s.Blend(tri[:], coef)
		var want geom.Vec3
		for k, v := range tri {
			want = want.Add(p.Verts[v].Mul(coef[k]))
		}
		if got := s.Place(&p, &b); got.Sub(want).Len() > 1e-12 {
			t.Fatalf("triangle %v: the blend is placed at %v, its vertices' combination at %v", tri, got, want)
		}
	}
}
