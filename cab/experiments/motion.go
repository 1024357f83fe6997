package experiments

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// ChainPose places the links of a chain: link 0 at base, each next link at
// the previous one's tip (length along its +Y), turned at the joint by
// bend[i][0] about its Z axis then bend[i][1] about its X axis.
func ChainPose(length float64, base geom.Transform, bend [][2]float64, out []geom.Transform) {
	x := base
	for i := range bend {
		if i > 0 {
			x.T = x.Apply(geom.Vec3{Y: length})
		}
		x.R = x.R.Mul3(rotZ(bend[i][0])).Mul3(rotX(bend[i][1]))
		out[i] = x
	}
}

func rotX(a float64) mgl64.Mat3 {
	s, c := math.Sincos(a)
	return mgl64.Mat3{1, 0, 0, 0, c, s, 0, -s, c}
}

func rotZ(a float64) mgl64.Mat3 {
	s, c := math.Sincos(a)
	return mgl64.Mat3{c, s, 0, -s, c, 0, 0, 0, 1}
}

// Motion is a deterministic, smooth motion of two chains.
type Motion string

const (
	// Wave: two chains rooted side by side, 2.5 link lengths apart, both
	// pointing up; every joint bends by sums of sines of time with
	// per-joint phases, so the chains sway into each other's space and
	// out again (tables 1-3).
	Wave Motion = "wave"
	// Braid: the two chains wind around a common vertical axis as a double
	// helix whose radius breathes between 0.46 and 0.66 link thicknesses,
	// so the strands stay in close contact (table 4).
	Braid Motion = "braid"
)

// TwoChainPoses fills the poses of chain A and chain B (n links each, of
// the given shape) at time t (seconds) of the motion.
func TwoChainPoses(m Motion, s LinkShape, n int, t float64, bendA, bendB [][2]float64, a, b []geom.Transform) {
	switch m {
	case Braid:
		braid(s, n, t, a, b)
		return
	}
	gap := 2.5 * s.Length
	for i := range n {
		fi := float64(i)
		// Base joints lean the chains toward each other; the rest sway.
		lean := 0.0
		if i == 0 {
			lean = 0.45
		}
		bendA[i] = [2]float64{
			-lean - 0.32*math.Sin(1.3*t+0.7*fi) - 0.12*math.Sin(2.9*t+1.3*fi),
			0.25 * math.Sin(1.7*t+0.9*fi),
		}
		bendB[i] = [2]float64{
			lean + 0.32*math.Sin(1.1*t+0.6*fi+1) + 0.12*math.Sin(3.1*t+1.1*fi),
			0.25 * math.Sin(1.9*t+0.8*fi+2),
		}
	}
	ChainPose(s.Length, geom.Transform{R: mgl64.Ident3(), T: geom.Vec3{X: -gap / 2}}, bendA[:n], a)
	ChainPose(s.Length, geom.Transform{R: mgl64.Ident3(), T: geom.Vec3{X: gap / 2}}, bendB[:n], b)
}

// braid poses link i of each strand along a helix: strand B is strand A
// turned half a revolution about the axis.
func braid(s LinkShape, n int, t float64, a, b []geom.Transform) {
	radius := s.Thickness * (0.56 - 0.1*math.Sin(0.8*t))
	pitch := 8 * s.Length // rise per revolution: 45° of turn per link
	turn := 2 * math.Pi * s.Length / pitch
	for strand, out := range [2][]geom.Transform{a, b} {
		phase := 0.6*t + math.Pi*float64(strand)
		y := 0.0
		for i := range n {
			th0 := phase + turn*float64(i)
			th1 := th0 + turn
			p0 := geom.Vec3{X: radius * math.Cos(th0), Y: y, Z: radius * math.Sin(th0)}
			rise := math.Sqrt(max(s.Length*s.Length-sq(2*radius*math.Sin(turn/2)), 0))
			p1 := geom.Vec3{X: radius * math.Cos(th1), Y: y + rise, Z: radius * math.Sin(th1)}
			dir := p1.Sub(p0).Normalize()
			out[i] = geom.Transform{R: frameAlong(dir), T: p0}
			y += rise
		}
	}
}

func sq(x float64) float64 { return x * x }

// frameAlong returns a rotation whose +Y is dir.
func frameAlong(dir geom.Vec3) mgl64.Mat3 {
	ref := geom.Vec3{Z: 1}
	if math.Abs(dir.Z) > 0.9 {
		ref = geom.Vec3{X: 1}
	}
	x := dir.Cross(ref).Normalize()
	z := x.Cross(dir)
	return geom.FromCols(x, dir, z)
}
