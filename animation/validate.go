package animation

import (
	"errors"
	"fmt"
	"math"

	"github.com/qmuntal/gltf"
)

// unitTol is how far from 1 a quaternion's length may be: single
// precision rounds a unit quaternion's length by about 1e-7.
const unitTol = 1e-6

// maxProblems bounds how many problems Validate reports.
const maxProblems = 20

// Validate checks a decoded document against the glTF 2.0
// specification's structural rules for what gloved writes: every index
// in range; buffer views within their buffers and accessors within their
// views, aligned (sections 3.6.1, 3.6.2); float data finite; min and max
// present on POSITION and animation inputs and equal to the data's, wherever
// given (3.6.2.5); the node graph a forest whose scenes list roots (3.5.2);
// triangle indices within their vertices; skins with a common root, inverse
// bind matrices for every joint, joint indices within the skin and
// weights summing to 1 (3.7.3); animation channels with valid, distinct
// targets, samplers with strictly increasing inputs from 0 and as many
// outputs as the interpolation needs, of the type their path needs, and
// unit quaternions (3.11). It returns nil, or the problems found (at most
// maxProblems) joined. Parts of glTF gloved never writes (sparse
// accessors, morph targets) are reported as unchecked, not passed.
func Validate(doc *gltf.Document) error {
	c := &checker{doc: doc}
	c.buffers()
	c.accessors()
	c.nodes()
	c.scenes()
	c.meshes()
	c.skins()
	c.animations()
	return errors.Join(c.errs...)
}

// checker collects the problems of one document.
type checker struct {
	doc    *gltf.Document
	errs   []error
	elems  []*elements // each accessor located; nil where it could not be
	parent []int       // each node's parent, -1 for none
}

// fail records a problem.
func (c *checker) fail(format string, args ...any) {
	if len(c.errs) < maxProblems {
		c.errs = append(c.errs, fmt.Errorf("animation: glTF: "+format, args...))
	}
}

// accessor returns accessor i, located, or nil having recorded why not.
func (c *checker) accessor(i int, what string) *elements {
	if i < 0 || i >= len(c.elems) {
		c.fail("%s: accessor %d does not exist (%d accessors)", what, i, len(c.elems))
		return nil
	}
	return c.elems[i]
}

// buffers checks that every buffer holds the bytes it declares.
func (c *checker) buffers() {
	if c.doc.Asset.Version != "2.0" {
		c.fail("asset version %q, want 2.0", c.doc.Asset.Version)
	}
	for i, b := range c.doc.Buffers {
		if b.ByteLength < 1 || len(b.Data) < b.ByteLength {
			c.fail("buffer %d: %d bytes declared, %d held", i, b.ByteLength, len(b.Data))
		}
	}
}

// accessors locates every accessor and checks its data: floats finite,
// and min and max, where given, the data's own.
func (c *checker) accessors() {
	c.elems = make([]*elements, len(c.doc.Accessors))
	for i, a := range c.doc.Accessors {
		e, err := locate(c.doc, i)
		if err != nil {
			c.fail("%v", err)
			continue
		}
		c.elems[i] = &e
		if e.float && !finiteData(&e) {
			c.fail("accessor %d holds a NaN or an infinity", i)
			continue
		}
		lo, hi := e.bounds()
		if a.Min != nil && !sameBounds(a.Min, lo, e.float) || a.Max != nil && !sameBounds(a.Max, hi, e.float) {
			c.fail("accessor %d: min %v max %v, but the data's are %v %v", i, a.Min, a.Max, lo, hi)
		}
	}
}

// finiteData reports whether every component of e is finite.
func finiteData(e *elements) bool {
	for k := range e.count {
		for j := range e.comps {
			if x := e.raw(k, j); math.IsNaN(x) || math.IsInf(x, 0) {
				return false
			}
		}
	}
	return true
}

// sameBounds reports whether declared bounds equal the data's, floats
// compared in single precision as section 3.6.2.5 says they are meant.
func sameBounds(declared, data []float64, float bool) bool {
	if len(declared) != len(data) {
		return false
	}
	for k, d := range declared {
		if float && float32(d) != float32(data[k]) || !float && d != data[k] {
			return false
		}
	}
	return true
}

// nodes checks every node's references and transform, and that the node
// graph is a forest: each node a child of at most one, no cycles.
func (c *checker) nodes() {
	doc := c.doc
	c.parent = make([]int, len(doc.Nodes))
	for i := range c.parent {
		c.parent[i] = -1
	}
	for i, n := range doc.Nodes {
		for _, ch := range n.Children {
			switch {
			case ch < 0 || ch >= len(doc.Nodes) || ch == i:
				c.fail("node %d: child %d does not exist or is itself", i, ch)
			case c.parent[ch] >= 0:
				c.fail("node %d: child %d is already node %d's", i, ch, c.parent[ch])
			default:
				c.parent[ch] = i
			}
		}
		if n.Mesh != nil && (*n.Mesh < 0 || *n.Mesh >= len(doc.Meshes)) {
			c.fail("node %d: mesh %d does not exist", i, *n.Mesh)
		}
		if n.Skin != nil && (*n.Skin < 0 || *n.Skin >= len(doc.Skins) || n.Mesh == nil) {
			c.fail("node %d: skin %d does not exist or has no mesh to move", i, *n.Skin)
		}
		if q := n.RotationOrDefault(); math.Abs(math.Sqrt(q[0]*q[0]+q[1]*q[1]+q[2]*q[2]+q[3]*q[3])-1) > unitTol {
			c.fail("node %d: rotation %v is not a unit quaternion", i, q)
		}
		if n.MatrixOrDefault() != gltf.DefaultMatrix && (n.TranslationOrDefault() != gltf.DefaultTranslation || n.RotationOrDefault() != gltf.DefaultRotation || n.ScaleOrDefault() != gltf.DefaultScale) {
			c.fail("node %d has both a matrix and a translation, rotation or scale", i)
		}
	}
	for i := range doc.Nodes {
		steps := 0
		for p := c.parent[i]; p >= 0; p = c.parent[p] {
			if steps++; steps > len(doc.Nodes) {
				c.fail("node %d is in a cycle of the node graph", i)
				break
			}
		}
	}
}

// scenes checks that each scene lists existing root nodes, and the
// default scene exists.
func (c *checker) scenes() {
	doc := c.doc
	if doc.Scene != nil && (*doc.Scene < 0 || *doc.Scene >= len(doc.Scenes)) {
		c.fail("the default scene %d does not exist", *doc.Scene)
	}
	for s, sc := range doc.Scenes {
		for _, n := range sc.Nodes {
			if n < 0 || n >= len(doc.Nodes) || c.parent[n] >= 0 {
				c.fail("scene %d: node %d does not exist or is not a root", s, n)
			}
		}
	}
}

// root returns the root of node n's tree.
func (c *checker) root(n int) int {
	for steps := 0; c.parent[n] >= 0 && steps <= len(c.parent); steps++ {
		n = c.parent[n]
	}
	return n
}
