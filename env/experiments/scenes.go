package experiments

import (
	"fmt"
	"math"
	"strings"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// SceneClass is a family of procedural scenes of growing size, each placed
// for the demo wrist (env.GraspWrist) so that the simulated motions meet
// it the same way at every size: the instrument of `gloved bench scenes`,
// which measures how a frame's cost grows with the scene.
type SceneClass struct {
	Name string
	// What describes the scene and where the hand is.
	What string
	// Sizes are the approximate triangle counts to build.
	Sizes []int
	// Make builds the scene of about tris triangles.
	Make func(tris int) (*env.Mesh, error)
}

// procedural is a Make that cannot fail.
func procedural(f func(tris int) *env.Mesh) func(tris int) (*env.Mesh, error) {
	return func(tris int) (*env.Mesh, error) { return f(tris), nil }
}

// The table under every scene but the height field: the demo's.
var table = func() *env.Mesh {
	return env.Box("table", geom.Vec3{Y: 0.70}, geom.Vec3{X: 0.60, Y: 0.02, Z: 0.40})
}

// SceneClasses are the classes, in the order the bench runs them.
var SceneClasses = []SceneClass{
	{
		Name:  "ball",
		What:  "convex ball r 6 cm on the table; the grasp sinks the fingers in",
		Sizes: []int{2_000, 8_000, 32_000, 131_000},
		Make: procedural(func(tris int) *env.Mesh {
			level := int(math.Round(math.Log(float64(tris)/8) / math.Log(4)))
			m := table()
			m.Append(env.Sphere("ball", geom.Vec3{Y: 0.78, Z: 0.01}, 0.06, max(1, level)))
			return m
		}),
	},
	{
		Name:  "torus",
		What:  "closed non-convex torus (R 3.5 cm, tube 3 cm) on the table; the grasp sinks the fingers in",
		Sizes: []int{25_000, 100_000, 400_000, 1_000_000},
		Make: procedural(func(tris int) *env.Mesh {
			nv := max(3, int(math.Round(math.Sqrt(float64(tris)/4))))
			m := table()
			m.Append(env.Torus("torus", geom.Vec3{Y: 0.81, Z: 0.01}, 0.035, 0.03, 2*nv, nv))
			return m
		}),
	},
	{
		Name:  "room",
		What:  "a room: floor, walls, the table, the grasped ball and two more objects beside it",
		Sizes: []int{250_000, 1_000_000},
		Make:  procedural(room),
	},
	{
		Name:  "field",
		What:  "1 m height field 7-10 cm under the fingers (ripples of 2 cm), no table; nothing within the band",
		Sizes: []int{50_000, 200_000, 800_000, 2_000_000},
		Make: procedural(func(tris int) *env.Mesh {
			return HeightField(max(2, int(math.Round(math.Sqrt(float64(tris)/2)))))
		}),
	},
	realMeshClass(bunny, "the Stanford bunny (a scan; open: holes in its base) 12.5 cm tall on the table"),
	realMeshClass(armadillo, "the Stanford armadillo (a scan, decimated; closed) 12.5 cm tall on the table"),
	realMeshClass(spot, "Keenan Crane's cow Spot (modelled; closed) 12.5 cm tall on the table"),
	realMeshClass(duck, "the Khronos glTF duck (modelled; closed once welded) 12.5 cm tall on the table"),
	{
		Name:  "terrain",
		What:  "1 m terrain as tools export it (unwelded tiles, T-junctions, slivers across the field, fans, a duplicated and an overlapping tile), 2-5 cm teeth and dimples 8 cm under the fingers, corner spikes above the hand; no table; nothing within the band",
		Sizes: []int{25_000, 100_000, 400_000, 1_000_000},
		Make:  procedural(ExportedTerrain),
	},
	{
		Name:  "block",
		What:  "closed 1 m height-field block (rippled top, walls, bottom; wound outward) up to 0.83 m, no table; the grasp sinks the fingertips into its top",
		Sizes: []int{25_000, 100_000, 400_000, 1_000_000},
		Make:  procedural(Block),
	},
}

// realMeshClass is the class of a real mesh: its native size and its
// subdivisions, the grasp sinking the fingers in.
func realMeshClass(r realMesh, what string) SceneClass {
	return SceneClass{Name: r.name, What: what + "; the grasp sinks the fingers in; larger sizes subdivide it 1-to-4", Sizes: r.sizes(), Make: r.scene}
}

// room returns a room of about tris triangles around the demo grasp: a
// floor (a height field), four walls and the table, and on the table the
// grasped ball with a torus and a second ball beside it, the finely
// tessellated objects taking the rest.
func room(tris int) *env.Mesh {
	m := HeightField(max(2, int(math.Sqrt(float64(tris)/8))))
	for _, w := range [][2]geom.Vec3{
		{{Y: 1.2, Z: -0.5}, {X: 0.5, Y: 0.55, Z: 0.005}}, {{Y: 1.2, Z: 0.5}, {X: 0.5, Y: 0.55, Z: 0.005}},
		{{X: -0.5, Y: 1.2}, {X: 0.005, Y: 0.55, Z: 0.5}}, {{X: 0.5, Y: 1.2}, {X: 0.005, Y: 0.55, Z: 0.5}},
	} {
		m.Append(env.Box("wall", w[0], w[1]))
	}
	m.Append(table())
	rest := max(8, (tris-len(m.Tris))/3)
	level := int(math.Round(math.Log(float64(rest)/8) / math.Log(4)))
	m.Append(env.Sphere("ball", geom.Vec3{Y: 0.78, Z: 0.01}, 0.06, max(1, level)))
	m.Append(env.Sphere("ball2", geom.Vec3{X: 0.25, Y: 0.78, Z: 0.1}, 0.06, max(1, level)))
	nv := max(3, int(math.Round(math.Sqrt(float64(rest)/4))))
	m.Append(env.Torus("torus", geom.Vec3{X: -0.25, Y: 0.75, Z: 0.05}, 0.035, 0.03, 2*nv, nv))
	return m
}

// HeightField returns a 1 m square terrain of 2n² triangles around the
// demo grasp, its surface at 0.66-0.70 m with ripples of 2 cm, wound up.
func HeightField(n int) *env.Mesh {
	return env.Terrain("field", n, func(x, z float64) float64 { return 0.68 + 0.02*math.Sin(x*40)*math.Cos(z*33) })
}

// SceneClassNames returns the classes' names, in order, comma-separated.
func SceneClassNames() string {
	names := make([]string, len(SceneClasses))
	for i, c := range SceneClasses {
		names[i] = c.Name
	}
	return strings.Join(names, ",")
}

// SceneClassNamed returns the class called name.
func SceneClassNamed(name string) (SceneClass, error) {
	for _, c := range SceneClasses {
		if c.Name == name {
			return c, nil
		}
	}
	return SceneClass{}, fmt.Errorf("no scene class %q (have: %s)", name, SceneClassNames())
}
