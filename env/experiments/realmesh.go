package experiments

import (
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// The real meshes, as testdata/meshes/README.md lists them.
var (
	bunny     = realMesh{name: "bunny", file: "bunny.glb", tris: 69_451}
	armadillo = realMesh{name: "armadillo", file: "armadillo.glb", tris: 99_976}
	spot      = realMesh{name: "spot", file: "spot.glb", tris: 5_856}
	duck      = realMesh{name: "duck", file: "duck.glb", tris: 4_212}
)

// Where a real mesh stands: on the table's top face, its footprint
// centred where the ball's is, scaled to realHeight (the ball's 12 cm and a
// little more: the grasp's fingertips reach down to 0.81 m, 3.5 cm below
// its top).
const (
	tableTop   = 0.72
	realHeight = 0.125
	realZ      = 0.01
)

// maxSubdivided bounds the sizes of a real mesh's class: its native size
// times 4^k up to here.
const maxSubdivided = 1_200_000

// realMesh is a scanned or modelled mesh from testdata/meshes (its source
// and licence are in testdata/meshes/README.md), stood on the table under
// the demo grasp.
type realMesh struct {
	name string
	file string // in testdata/meshes
	tris int    // the file's triangles
}

// load reads the mesh from dir, welds it into one object named r.name
// and places it on the table. The file must have r.tris triangles.
func (r realMesh) load(dir string) (*env.Mesh, error) {
	m, err := env.Load(filepath.Join(dir, r.file), env.LoadOptions{})
	if err != nil {
		return nil, fmt.Errorf("experiments: %w", err)
	}
	if len(m.Tris) != r.tris {
		return nil, fmt.Errorf("experiments: %s: %d triangles, want %d (see testdata/meshes/README.md)", r.file, len(m.Tris), r.tris)
	}
	m.Weld()
	m.Objects = []string{r.name}
	for i := range m.Object {
		m.Object[i] = 0
	}
	if err := place(m); err != nil {
		return nil, fmt.Errorf("experiments: %s: %w", r.file, err)
	}
	m.DetectConvex()
	return m, nil
}

// place scales m to realHeight and stands it on the table under the grasp.
func place(m *env.Mesh) error {
	box := geom.EmptyAABB()
	for _, v := range m.Verts {
		box = box.Extend(v)
	}
	s := realHeight / (box.Max.Y - box.Min.Y)
	c := box.Center()
	to := geom.Transform{R: mgl64.Ident3(), T: geom.Vec3{X: -s * c.X, Y: tableTop - s*box.Min.Y, Z: realZ - s*c.Z}}
	return m.Place(env.LoadOptions{Scale: s, Transform: &to})
}

// sizes are the mesh's native size and its subdivisions' (4x each) up to
// about a million triangles.
func (r realMesh) sizes() []int {
	var sizes []int
	for n := r.tris; n <= maxSubdivided; n *= 4 {
		sizes = append(sizes, n)
	}
	return sizes
}

// scene returns the table with the mesh on it, subdivided (Subdivide)
// until it has about tris triangles.
func (r realMesh) scene(tris int) (*env.Mesh, error) {
	dir, err := meshDir()
	if err != nil {
		return nil, err
	}
	m, err := r.load(dir)
	if err != nil {
		return nil, err
	}
	for range subdivisions(r.tris, tris) {
		m = Subdivide(m)
	}
	scene := table()
	scene.Append(m)
	return scene, nil
}

// subdivisions is how many 1-to-4 splits bring native triangles nearest
// to tris (none below the native size).
func subdivisions(native, tris int) int {
	return max(0, int(math.Round(math.Log(float64(tris)/float64(native))/math.Log(4))))
}

// meshDir returns testdata/meshes in the working directory or the nearest
// directory above it that has one: the repository's, run from anywhere
// inside the repository.
func meshDir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("experiments: %w", err)
	}
	for dir := wd; ; {
		p := filepath.Join(dir, "testdata", "meshes")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("experiments: no testdata/meshes in %s or above it: run the real-mesh scene classes inside the gloved repository", wd)
		}
		dir = up
	}
}
