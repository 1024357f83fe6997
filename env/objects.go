package env

// objectIndex lists each object's triangles: object o's are
// tris[start[o]:start[o+1]], in increasing order. It is built for every
// object at once, in one pass, so that a scene of thousands of objects
// costs its triangles to index, not its triangles times its objects (a
// scene of 16,000 small boxes took 50 s to prepare when each object
// looked through every triangle).
type objectIndex struct {
	start, tris []int32
	ntris       int // len(Mesh.Tris) when it was built
}

// index returns m's object index, built on first use and again when m's
// triangles or objects have changed since (Append). Safe for concurrent
// use: two first uses may both build it, and one is kept.
func (m *Mesh) index() *objectIndex {
	if x := m.objects.Load(); x != nil && x.ntris == len(m.Tris) && len(x.start) == len(m.Objects)+1 {
		return x
	}
	x := &objectIndex{start: make([]int32, len(m.Objects)+1), tris: make([]int32, len(m.Tris)), ntris: len(m.Tris)}
	for _, o := range m.Object {
		x.start[o+1]++
	}
	for o := range m.Objects {
		x.start[o+1] += x.start[o]
	}
	next := append([]int32(nil), x.start[:len(m.Objects)]...)
	for i, o := range m.Object {
		x.tris[next[o]] = int32(i)
		next[o]++
	}
	m.objects.Store(x)
	return x
}

// ObjectTris returns the indices in m.Tris of object o's triangles, in
// increasing order. The slice is m's own: read it, never change it.
func (m *Mesh) ObjectTris(o int) []int32 {
	x := m.index()
	return x.tris[x.start[o]:x.start[o+1]:x.start[o+1]]
}

// ObjectMesh returns object o's triangles as a mesh sharing m's
// vertices and objects (Subset), and for each of its triangles the index
// of the triangle in m.
func (m *Mesh) ObjectMesh(o int) (*Mesh, []int32) {
	return m.subsetOf(append([]int32(nil), m.ObjectTris(o)...))
}

// ShownObjects is how many object names a line about a scene shows.
const ShownObjects = 16

// SomeObjects returns the first ShownObjects of m's object names and how
// many more there are: a line about a scene of 16,000 objects names a
// few, not all of them.
func (m *Mesh) SomeObjects() (names []string, more int) {
	if len(m.Objects) <= ShownObjects {
		return m.Objects, 0
	}
	return m.Objects[:ShownObjects:ShownObjects], len(m.Objects) - ShownObjects
}
