package animation

import (
	"io"

	"github.com/qmuntal/gltf"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

// AnimationName names the file's one animation.
const AnimationName = "session"

// Write writes the session as glTF 2.0: binary (GLB) or, if not binary,
// JSON with the buffer embedded. It can be called once: the keys are
// released as they are written, so a long session's memory is not held
// twice.
func (r *Recorder) Write(w io.Writer, binary bool) error {
	doc, err := r.document()
	if err != nil {
		return err
	}
	return encode(w, doc, binary)
}

// document returns the session as a glTF document, ready to encode.
func (r *Recorder) document() (*gltf.Document, error) {
	if r.spent {
		return nil, errSpent
	}
	if len(r.times) == 0 {
		return nil, ErrNoFrames
	}
	r.spent = true
	doc := newDocument(AnimationName)
	doc.Buffers = []*gltf.Buffer{{Data: make([]byte, 0, r.bytes())}}
	r.addScene(doc)
	r.addLinks(doc)
	if r.rig != nil {
		addSkin(doc, r.rig, r.joints)
	}
	r.addMarkers(doc)
	r.addAnimation(doc)
	return doc, nil
}

// bytes estimates the buffer: the scene, the hulls, and the keys.
func (r *Recorder) bytes() int {
	n := 12*len(r.scene.Verts) + 12*len(r.scene.Tris)
	for l := range r.links {
		g := r.hand.Geometry(handmodel.Link(l))
		n += 12*len(g.Verts) + 12*len(g.Tris)
	}
	keys := 28*(len(r.links)+len(r.joints)) + 40*len(r.marks.tracks) + 4
	return n + keys*len(r.times) + 1<<16
}

// addScene adds a node and mesh per scene object, named by the object, in
// world space.
func (r *Recorder) addScene(doc *gltf.Document) {
	m := r.scene
	// order lists the triangles object by object, in the scene's order
	// within each: object o's are order[first[o]:first[o+1]].
	first := make([]int, len(m.Objects)+1)
	order := make([]int32, len(m.Tris))
	for _, o := range m.Object {
		first[o+1]++
	}
	for o := range m.Objects {
		first[o+1] += first[o]
	}
	next := append([]int(nil), first[:len(m.Objects)]...)
	for i, o := range m.Object {
		order[next[o]] = int32(i)
		next[o]++
	}
	local := make(map[int32]int32)
	for o, name := range m.Objects {
		clear(local)
		var verts []geom.Vec3
		var tris [][3]int32
		for _, i := range order[first[o]:first[o+1]] {
			var t [3]int32
			for k, v := range m.Tris[i] {
				lv, ok := local[v]
				if !ok {
					lv = int32(len(verts))
					local[v] = lv
					verts = append(verts, m.Verts[v])
				}
				t[k] = lv
			}
			tris = append(tris, t)
		}
		if len(tris) == 0 {
			continue
		}
		mesh := addMesh(doc, name, verts, tris, matScene)
		addNode(doc, &gltf.Node{Name: name, Mesh: gltf.Index(mesh)}, true)
	}
}

// addLinks adds a node per link, named by the link, with its hull in the
// link's frame.
func (r *Recorder) addLinks(doc *gltf.Document) {
	for l := range r.links {
		name := handmodel.Link(l).String()
		g := r.hand.Geometry(handmodel.Link(l))
		mesh := addMesh(doc, name, g.Verts, g.Tris, matLink)
		r.links[l].node = addNode(doc, &gltf.Node{Name: name, Mesh: gltf.Index(mesh)}, true)
	}
}

// addMarkers adds the contact markers' nodes, sharing one cone.
func (r *Recorder) addMarkers(doc *gltf.Document) {
	if len(r.marks.tracks) == 0 {
		return
	}
	verts, tris := cone()
	mesh := addMesh(doc, "contact", verts, tris, matContact)
	for i := range r.marks.tracks {
		r.marks.tracks[i].node = addNode(doc, &gltf.Node{Name: MarkerName(i), Mesh: gltf.Index(mesh)}, true)
	}
}

// addAnimation adds the one animation: every track keyed at the frames'
// times, the links and joints LINEAR, the markers STEP. Every node rests
// at its first key; a session in which nothing moves (one frame) has no
// animation.
func (r *Recorder) addAnimation(doc *gltf.Document) {
	type keyed struct {
		k      *track
		interp gltf.Interpolation
	}
	var all []keyed
	for i := range r.links {
		all = append(all, keyed{&r.links[i], gltf.InterpolationLinear})
	}
	for i := range r.joints {
		all = append(all, keyed{&r.joints[i], gltf.InterpolationLinear})
	}
	for i := range r.marks.tracks {
		all = append(all, keyed{&r.marks.tracks[i], gltf.InterpolationStep})
	}
	moving := false
	for _, a := range all {
		a.k.rest(doc)
		moving = moving || a.k.moving()
	}
	if !moving {
		return
	}
	times := keyTimes(r.times)
	in := writeData(doc, times)
	doc.Accessors[in].Min = []float64{float64(times[0])}
	doc.Accessors[in].Max = []float64{float64(times[len(times)-1])}
	anim := &gltf.Animation{Name: AnimationName}
	for _, a := range all {
		a.k.channels(doc, anim, in, a.interp)
	}
	doc.Animations = append(doc.Animations, anim)
}

// addNode appends n to doc, as a root of the scene if root, and returns
// its index.
func addNode(doc *gltf.Document, n *gltf.Node, root bool) int {
	doc.Nodes = append(doc.Nodes, n)
	i := len(doc.Nodes) - 1
	if root {
		doc.Scenes[0].Nodes = append(doc.Scenes[0].Nodes, i)
	}
	return i
}
