package env

import (
	"slices"
	"sync/atomic"

	"github.com/gloved/gloved/geom"
)

// Mesh is an indexed triangle soup with named objects. Triangles keep the
// order of the file they came from; Object[i] is the index in Objects of the
// object triangle i belongs to.
type Mesh struct {
	Verts   []geom.Vec3
	Tris    [][3]int32
	Object  []int32
	Objects []string
	// Degenerate counts zero-area triangles. They are kept: the collision
	// code handles them, and dropping them would renumber the file.
	Degenerate int
	// Convex[o] reports that object o's mesh is its own convex hull (set by
	// Load, or by DetectConvex): the narrow phase treats it as a solid.
	Convex []bool
	// Warnings are what loading changed in a file to use it (names.go),
	// one line each, naming the file.
	Warnings []string
	// Given[o] is object o's name as its file gave it, when UniqueNames
	// renamed some object (nil otherwise): a config's methods key names
	// every object its files called that (Named).
	Given []string
	// objects indexes each object's triangles (objects.go).
	objects atomic.Pointer[objectIndex]
}

// DetectConvex fills Convex for a mesh not made by Load.
func (m *Mesh) DetectConvex() { m.detectConvex() }

// Triangle returns triangle i's corners.
func (m *Mesh) Triangle(i int) geom.Triangle {
	t := m.Tris[i]
	return geom.Triangle{m.Verts[t[0]], m.Verts[t[1]], m.Verts[t[2]]}
}

// ObjectName returns the name of the object triangle i belongs to.
func (m *Mesh) ObjectName(i int) string { return m.Objects[m.Object[i]] }

// Append adds the triangles and objects of o after those of m.
func (m *Mesh) Append(o *Mesh) {
	vbase, obase := int32(len(m.Verts)), int32(len(m.Objects))
	m.Verts = append(m.Verts, o.Verts...)
	for i, t := range o.Tris {
		m.Tris = append(m.Tris, [3]int32{t[0] + vbase, t[1] + vbase, t[2] + vbase})
		m.Object = append(m.Object, o.Object[i]+obase)
	}
	if m.Convex != nil || o.Convex != nil {
		m.Convex = append(m.Convex, make([]bool, int(obase)-len(m.Convex))...)
		m.Convex = append(m.Convex, o.Convex...)
		m.Convex = append(m.Convex, make([]bool, int(obase)+len(o.Objects)-len(m.Convex))...)
	}
	if m.Given != nil || o.Given != nil {
		if m.Given == nil {
			m.Given = slices.Clone(m.Objects[:obase])
		}
		if o.Given != nil {
			m.Given = append(m.Given, o.Given...)
		} else {
			m.Given = append(m.Given, o.Objects...)
		}
	}
	m.Objects = append(m.Objects, o.Objects...)
	m.Degenerate += o.Degenerate
	m.Warnings = append(m.Warnings, o.Warnings...)
}

// Named reports whether object o is called name: its name, or the name
// its file gave it before UniqueNames renamed it.
func (m *Mesh) Named(o int, name string) bool {
	return m.Objects[o] == name || m.Given != nil && m.Given[o] == name
}

// addObject starts a new named object and returns its index.
func (m *Mesh) addObject(name string) int32 {
	m.Objects = append(m.Objects, name)
	return int32(len(m.Objects) - 1)
}

// countDegenerate recounts the zero-area triangles.
func (m *Mesh) countDegenerate() {
	m.Degenerate = 0
	for i := range m.Tris {
		if m.Triangle(i).Degenerate() {
			m.Degenerate++
		}
	}
}

// dropEmptyObjects removes objects that own no triangle (an OBJ `o` line
// followed by another), renumbering the rest.
func (m *Mesh) dropEmptyObjects() {
	used := make([]bool, len(m.Objects))
	for _, o := range m.Object {
		used[o] = true
	}
	remap := make([]int32, len(m.Objects))
	var names []string
	for i, u := range used {
		if u {
			remap[i] = int32(len(names))
			names = append(names, m.Objects[i])
		}
	}
	for i, o := range m.Object {
		m.Object[i] = remap[o]
	}
	m.Objects = names
}

// Subset returns a mesh of the triangles keep selects, sharing m's
// vertices and objects, and for each of its triangles the index of the
// triangle in m. Where keep selects one run of m's triangles, as it does
// an object of a loaded scene, the subset shares their slice of m's
// triangles too (capped, so that appending to it copies): an object's
// copy would take 16 bytes a triangle.
func (m *Mesh) Subset(keep func(tri int) bool) (*Mesh, []int32) {
	n := 0
	for i := range m.Tris {
		if keep(i) {
			n++
		}
	}
	orig := make([]int32, 0, n)
	for i := range m.Tris {
		if keep(i) {
			orig = append(orig, int32(i))
		}
	}
	return m.subsetOf(orig)
}

// subsetOf is Subset of the triangles orig lists, in increasing order;
// the subset keeps orig.
func (m *Mesh) subsetOf(orig []int32) (*Mesh, []int32) {
	s := &Mesh{Verts: m.Verts, Objects: m.Objects, Convex: m.Convex}
	n := len(orig)
	if n > 0 && int(orig[n-1]-orig[0]) == n-1 {
		a, b := orig[0], orig[n-1]+1
		s.Tris, s.Object = m.Tris[a:b:b], m.Object[a:b:b]
		return s, orig
	}
	s.Tris, s.Object = make([][3]int32, n), make([]int32, n)
	for k, i := range orig {
		s.Tris[k], s.Object[k] = m.Tris[i], m.Object[i]
	}
	return s, orig
}
