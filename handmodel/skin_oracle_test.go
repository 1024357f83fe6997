package handmodel

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/gloved/gloved/geom"
)

// oracleSkin is the skin reader as it was built on qmuntal/gltf v0.28.0
// and its modeler package, kept to check ReadSkin against on the shipped
// hands only: on hostile files the library allocates from declared
// counts.
func oracleSkin(t *testing.T, path string) *Skin {
	t.Helper()
	doc, err := gltf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(doc.Nodes, func(n *gltf.Node) bool { return n.Mesh != nil && n.Skin != nil })
	if i < 0 {
		t.Fatalf("%s: no skinned mesh", path)
	}
	sk, world := doc.Skins[*doc.Nodes[i].Skin], oracleWorlds(doc)
	s := &Skin{}
	for _, j := range sk.Joints {
		s.Joints, s.Rest = append(s.Joints, doc.Nodes[j].Name), append(s.Rest, world[j])
	}
	ibm, err := modeler.ReadInverseBindMatrices(doc, doc.Accessors[*sk.InverseBindMatrices], nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ibm {
		var x mgl64.Mat4 // the library's [4][4] is indexed [row][column]
		for c := range 4 {
			for r := range 4 {
				x[4*c+r] = float64(m[r][c])
			}
		}
		s.InverseBind = append(s.InverseBind, x)
	}
	for _, p := range doc.Meshes[*doc.Nodes[i].Mesh].Primitives {
		if err := s.oraclePrimitive(doc, p); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// oracleWorlds is every node's world transform, composed down from the
// default scene's roots, with each rotation scaled to unit length.
func oracleWorlds(doc *gltf.Document) []mgl64.Mat4 {
	world := make([]mgl64.Mat4, len(doc.Nodes))
	var place func(i int, parent *mgl64.Mat4)
	place = func(i int, parent *mgl64.Mat4) {
		n := doc.Nodes[i]
		local := mgl64.Mat4(n.Matrix)
		if n.Matrix == gltf.DefaultMatrix || n.Matrix == [16]float64{} {
			t, r, s := n.TranslationOrDefault(), n.RotationOrDefault(), n.ScaleOrDefault()
			q := mgl64.Quat{W: r[3], V: mgl64.Vec3{r[0], r[1], r[2]}}
			q = q.Scale(1 / q.Len())
			local = mgl64.Translate3D(t[0], t[1], t[2]).Mul4(q.Mat4()).Mul4(mgl64.Scale3D(s[0], s[1], s[2]))
		}
		world[i] = local
		if parent != nil {
			world[i] = parent.Mul4(local)
		}
		for _, c := range n.Children {
			place(c, &world[i])
		}
	}
	for _, r := range doc.Scenes[*doc.Scene].Nodes {
		place(r, nil)
	}
	return world
}

// oraclePrimitive appends a primitive's vertices, their joints and
// weights (normalised to sum 1) and its triangles.
func (s *Skin) oraclePrimitive(doc *gltf.Document, p *gltf.Primitive) error {
	pos, err := modeler.ReadPosition(doc, doc.Accessors[p.Attributes[gltf.POSITION]], nil)
	if err != nil {
		return err
	}
	joints, err := modeler.ReadJoints(doc, doc.Accessors[p.Attributes[gltf.JOINTS_0]], nil)
	if err != nil {
		return err
	}
	weights, err := modeler.ReadWeights(doc, doc.Accessors[p.Attributes[gltf.WEIGHTS_0]], nil)
	if err != nil {
		return err
	}
	idx, err := modeler.ReadIndices(doc, doc.Accessors[*p.Indices], nil)
	if err != nil {
		return err
	}
	base := int32(len(s.Verts))
	for v, x := range pos {
		s.Verts = append(s.Verts, geom.Vec3{X: float64(x[0]), Y: float64(x[1]), Z: float64(x[2])})
		var inf [4]int32
		var w [4]float64
		sum := 0.0
		for k := range 4 {
			inf[k], w[k] = int32(joints[v][k]), float64(weights[v][k])
			sum += w[k]
		}
		for k := range w {
			if w[k] /= sum; w[k] == 0 {
				inf[k] = 0
			}
		}
		s.Influence, s.Weight = append(s.Influence, inf), append(s.Weight, w)
	}
	for k := 0; k+2 < len(idx); k += 3 {
		s.Tris = append(s.Tris, [3]int32{base + int32(idx[k]), base + int32(idx[k+1]), base + int32(idx[k+2])})
	}
	return nil
}

// TestReadSkinMatchesLibrary: on both shipped hands, what ReadSkin reads
// through package gltfdoc is what qmuntal/gltf reads, number for number.
func TestReadSkinMatchesLibrary(t *testing.T) {
	for _, side := range []string{"right", "left"} {
		path := filepath.Join("testdata", "webxr-generic-hand", side+".glb")
		got, want := webxrHand(t, side), oracleSkin(t, path)
		for _, c := range []struct {
			what string
			same bool
		}{
			{"vertices", slices.Equal(got.Verts, want.Verts)},
			{"triangles", slices.Equal(got.Tris, want.Tris)},
			{"joints", slices.Equal(got.Joints, want.Joints)},
			{"rest transforms", slices.Equal(got.Rest, want.Rest)},
			{"inverse bind matrices", slices.Equal(got.InverseBind, want.InverseBind)},
			{"influences", slices.Equal(got.Influence, want.Influence)},
			{"weights", slices.Equal(got.Weight, want.Weight)},
		} {
			if !c.same {
				t.Errorf("%s: the %s differ from qmuntal/gltf's", side, c.what)
			}
		}
		if len(got.Verts) == 0 || len(got.Rest) == 0 {
			t.Errorf("%s: %d vertices and %d joints read", side, len(got.Verts), len(got.Rest))
		}
	}
}
