package animation

import (
	"math"
	"slices"

	"github.com/qmuntal/gltf"
)

// weightTol is how far from 1 a vertex's weights may sum, in single
// precision.
const weightTol = 1e-6

// meshes checks each primitive's attributes and indices (section 3.7.2).
func (c *checker) meshes() {
	for m, mesh := range c.doc.Meshes {
		if len(mesh.Primitives) == 0 {
			c.fail("mesh %d has no primitives", m)
		}
		for p, prim := range mesh.Primitives {
			c.primitive(m, p, prim)
		}
	}
}

// primitive checks one primitive: a POSITION of VEC3 floats with bounds,
// every attribute as long as it, indices within it, skinning attributes
// of the types section 3.7.3.3 allows with weights summing to 1.
func (c *checker) primitive(m, p int, prim *gltf.Primitive) {
	if len(prim.Targets) > 0 {
		c.fail("mesh %d primitive %d: morph targets are not checked here", m, p)
	}
	if prim.Material != nil && (*prim.Material < 0 || *prim.Material >= len(c.doc.Materials)) {
		c.fail("mesh %d primitive %d: material %d does not exist", m, p, *prim.Material)
	}
	pi, ok := prim.Attributes[gltf.POSITION]
	if !ok {
		c.fail("mesh %d primitive %d has no POSITION", m, p)
		return
	}
	pos := c.accessor(pi, "POSITION")
	if pos == nil {
		return
	}
	a := c.doc.Accessors[pi]
	if a.Type != gltf.AccessorVec3 || !pos.float || a.Min == nil || a.Max == nil {
		c.fail("mesh %d primitive %d: POSITION accessor %d is not VEC3 floats with min and max", m, p, pi)
	}
	for name, i := range prim.Attributes {
		if e := c.accessor(i, name); e != nil && e.count != pos.count {
			c.fail("mesh %d primitive %d: %s has %d elements, POSITION %d", m, p, name, e.count, pos.count)
		}
	}
	if prim.Indices != nil {
		c.indices(m, p, *prim.Indices, prim.Mode, pos.count)
	}
	if w, ok := prim.Attributes[gltf.WEIGHTS_0]; ok {
		c.weights(m, p, w)
	}
	if j, ok := prim.Attributes[gltf.JOINTS_0]; ok && c.accessor(j, gltf.JOINTS_0) != nil {
		if a := c.doc.Accessors[j]; a.Type != gltf.AccessorVec4 || (a.ComponentType != gltf.ComponentUbyte && a.ComponentType != gltf.ComponentUshort) {
			c.fail("mesh %d primitive %d: JOINTS_0 is not VEC4 unsigned bytes or shorts", m, p)
		}
	}
}

// indices checks a primitive's indices: unsigned scalars, each naming one
// of its verts vertices, whole triangles for a triangle list.
func (c *checker) indices(m, p, i int, mode gltf.PrimitiveMode, verts int) {
	e := c.accessor(i, "indices")
	if e == nil {
		return
	}
	if a := c.doc.Accessors[i]; a.Type != gltf.AccessorScalar || e.float || a.ComponentType == gltf.ComponentByte || a.ComponentType == gltf.ComponentShort || a.Normalized {
		c.fail("mesh %d primitive %d: indices accessor %d is not unsigned integer scalars", m, p, i)
		return
	}
	if mode == gltf.PrimitiveTriangles && e.count%3 != 0 {
		c.fail("mesh %d primitive %d: %d indices do not make whole triangles", m, p, e.count)
	}
	for k := range e.count {
		if v := e.raw(k, 0); v >= float64(verts) {
			c.fail("mesh %d primitive %d: index %d names vertex %v of %d", m, p, k, v, verts)
			return
		}
	}
}

// weights checks WEIGHTS_0: VEC4, not negative, summing to 1.
func (c *checker) weights(m, p, i int) {
	e := c.accessor(i, "WEIGHTS_0")
	if e == nil {
		return
	}
	if c.doc.Accessors[i].Type != gltf.AccessorVec4 || !e.float && !e.normalized {
		c.fail("mesh %d primitive %d: WEIGHTS_0 is not VEC4 floats or normalised integers", m, p)
		return
	}
	for k := range e.count {
		sum := 0.0
		for j := range 4 {
			w := e.value(k, j)
			if w < 0 {
				c.fail("mesh %d primitive %d: vertex %d has a negative weight", m, p, k)
				return
			}
			sum += w
		}
		if math.Abs(sum-1) > weightTol {
			c.fail("mesh %d primitive %d: vertex %d's weights sum to %v", m, p, k, sum)
			return
		}
	}
}

// skins checks each skin (section 3.7.3): existing, distinct joints under
// one root, the skeleton that root or above the joints, an inverse bind
// matrix per joint, and the nodes it moves.
func (c *checker) skins() {
	doc := c.doc
	for s, sk := range doc.Skins {
		if len(sk.Joints) == 0 {
			c.fail("skin %d has no joints", s)
			continue
		}
		root := -1
		for k, j := range sk.Joints {
			switch {
			case j < 0 || j >= len(doc.Nodes) || slices.Index(sk.Joints, j) != k:
				c.fail("skin %d: joint %d (node %d) does not exist or is listed twice", s, k, j)
			case root >= 0 && c.root(j) != root:
				c.fail("skin %d: joints %d and %d have no common root", s, sk.Joints[0], j)
			default:
				root = c.root(j)
			}
		}
		if sk.Skeleton != nil && (*sk.Skeleton < 0 || *sk.Skeleton >= len(doc.Nodes) || root >= 0 && c.root(*sk.Skeleton) != root) {
			c.fail("skin %d: skeleton %d is not above its joints", s, *sk.Skeleton)
		}
		if sk.InverseBindMatrices != nil {
			i := *sk.InverseBindMatrices
			if e := c.accessor(i, "inverse bind matrices"); e != nil {
				if a := doc.Accessors[i]; a.Type != gltf.AccessorMat4 || !e.float || e.count < len(sk.Joints) || doc.BufferViews[*a.BufferView].ByteStride != 0 {
					c.fail("skin %d: inverse bind matrices accessor %d is not %d or more MAT4 floats without a stride", s, i, len(sk.Joints))
				}
			}
		}
	}
	for n, node := range doc.Nodes {
		if node.Skin != nil && *node.Skin >= 0 && *node.Skin < len(doc.Skins) && node.Mesh != nil && *node.Mesh >= 0 && *node.Mesh < len(doc.Meshes) {
			c.skinned(n, node, len(doc.Skins[*node.Skin].Joints))
		}
	}
}

// skinned checks a node that a skin moves: a root with no transform of
// its own (the skin's joints alone place it), its mesh's every primitive
// with joints and weights, each weighted joint within the skin's joints.
func (c *checker) skinned(n int, node *gltf.Node, joints int) {
	if c.parent[n] >= 0 || node.TranslationOrDefault() != gltf.DefaultTranslation || node.RotationOrDefault() != gltf.DefaultRotation || node.ScaleOrDefault() != gltf.DefaultScale {
		c.fail("node %d: a skinned mesh's node should be a root with no transform (it is ignored)", n)
	}
	for p, prim := range c.doc.Meshes[*node.Mesh].Primitives {
		ji, jok := prim.Attributes[gltf.JOINTS_0]
		wi, wok := prim.Attributes[gltf.WEIGHTS_0]
		if !jok || !wok {
			c.fail("node %d: skinned mesh primitive %d has no JOINTS_0 or WEIGHTS_0", n, p)
			continue
		}
		je, we := c.accessor(ji, "JOINTS_0"), c.accessor(wi, "WEIGHTS_0")
		if je == nil || we == nil || je.count != we.count {
			continue
		}
		for k := range je.count {
			for j := range 4 {
				if we.value(k, j) > 0 && je.raw(k, j) >= float64(joints) {
					c.fail("node %d: vertex %d names joint %v of the skin's %d", n, k, je.raw(k, j), joints)
					return
				}
			}
		}
	}
}
