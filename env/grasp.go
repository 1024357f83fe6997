package env

import (
	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// The built-in demo scene: a table with a 6 cm ball, and the wrist pose
// that holds the default hand over the ball.

// GraspScene is the table with a 6 cm ball on it (objects "table" and
// "ball"); the ball has 8·4^level triangles.
func GraspScene(ballLevel int) *Mesh {
	scene := Box("table", geom.Vec3{Y: 0.70}, geom.Vec3{X: 0.60, Y: 0.02, Z: 0.40})
	scene.Append(Sphere("ball", geom.Vec3{Y: 0.78, Z: 0.01}, 0.06, ballLevel))
	return scene
}

// GraspWrist places the default hand palm down over GraspScene's ball, so
// that the simulated grasp closes the fingers around it.
func GraspWrist() geom.Transform {
	w, _ := geom.FromQuat(mgl64.QuatRotate(-mgl64.DegToRad(90), mgl64.Vec3{1, 0, 0}), geom.Vec3{Y: 0.91, Z: 0.10})
	return w
}
