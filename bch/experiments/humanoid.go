package experiments

import (
	"math"
	"math/rand/v2"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// limit is a joint angle's range (radians).
type limit struct{ lo, hi float64 }

// bone is one rigid part of the humanoid: its joint's place in the
// parent's frame, the ranges of its turns about its own x (flexion), y
// (sideways) and z (twist) axes, and the capsule it carries, in its own
// frame. At zero angles every frame is the world's: z up, y forward, x
// the body's left.
type bone struct {
	name    string
	parent  int
	joint   geom.Vec3
	turn    [3]limit
	capsule Capsule
}

// humanoidEdge is the length the humanoid's triangle edges are sized to,
// so that its triangles are of one size, as a scanned character's are
// (and long limbs are not meshed by a few long slivers).
const humanoidEdge = 0.0515

// part is the capsule from a to b of radius r, meshed with edges of
// about humanoidEdge (at least 8 around and 2 rings a hemisphere).
func part(a, b geom.Vec3, r float64) Capsule {
	e := humanoidEdge
	return Capsule{A: a, B: b, Radius: r,
		Around: max(8, int(math.Round(2*math.Pi*r/e))),
		Rings:  max(2, int(math.Round(math.Pi*r/2/e))),
		Bands:  max(1, int(math.Round(b.Sub(a).Len()/e)))}
}

// humanoidBones is the skeleton: a pelvis at 0.95 m, abdomen, chest,
// neck and head; collarbones, upper arms, forearms and hands; thighs,
// shins and feet. Left parts (x > 0) come first in each pair; the right
// ones mirror them. Standing, it is 1.79 m tall.
var humanoidBones = func() []bone {
	z := func(v float64) geom.Vec3 { return geom.Vec3{Z: v} }
	bones := []bone{
		{name: "pelvis", parent: -1, joint: z(0.95), capsule: part(geom.Vec3{X: -0.08}, geom.Vec3{X: 0.08}, 0.11)},
		{name: "abdomen", parent: 0, joint: z(0.06), turn: [3]limit{{-0.25, 0.1}, {-0.15, 0.15}, {-0.3, 0.3}},
			capsule: part(z(0.04), z(0.2), 0.12)},
		{name: "chest", parent: 1, joint: z(0.22), turn: [3]limit{{-0.1, 0.05}, {-0.05, 0.05}, {-0.2, 0.2}},
			capsule: part(geom.Vec3{X: -0.07, Z: 0.14}, geom.Vec3{X: 0.07, Z: 0.14}, 0.14)},
		{name: "neck", parent: 2, joint: z(0.29), turn: [3]limit{{-0.3, 0.2}, {-0.2, 0.2}, {-0.6, 0.6}},
			capsule: part(z(0), z(0.07), 0.05)},
		{name: "head", parent: 3, joint: z(0.08), turn: [3]limit{{-0.3, 0.3}, {-0.2, 0.2}, {0, 0}},
			capsule: part(geom.Vec3{Y: 0.01, Z: 0.08}, geom.Vec3{Y: 0.01, Z: 0.1}, 0.09)},
	}
	for _, s := range []float64{1, -1} {
		chest := 2
		clav := len(bones)
		bones = append(bones, bone{name: side(s, "collarbone"), parent: chest, joint: geom.Vec3{X: s * 0.04, Z: 0.22},
			turn:    [3]limit{{-0.1, 0.1}, {-0.1, 0.1}, {0, 0}},
			capsule: part(geom.Vec3{}, geom.Vec3{X: s * 0.13, Z: 0.02}, 0.06)})
		upper := len(bones)
		// Abduction lifts the arm sideways: a turn about y of -s·a.
		bones = append(bones, bone{name: side(s, "upper arm"), parent: clav, joint: geom.Vec3{X: s * 0.16, Z: 0.02},
			turn:    [3]limit{{-0.5, 0.5}, mirrorLimit(s, limit{0.05, 0.3}), {-0.4, 0.4}},
			capsule: part(z(0), z(-0.28), 0.05)})
		fore := len(bones)
		bones = append(bones, bone{name: side(s, "forearm"), parent: upper, joint: z(-0.29),
			turn:    [3]limit{{0.1, 1.6}, {0, 0}, {-0.6, 0.6}},
			capsule: part(z(0), z(-0.25), 0.04)})
		bones = append(bones, bone{name: side(s, "hand"), parent: fore, joint: z(-0.26),
			turn:    [3]limit{{-0.5, 0.5}, {-0.2, 0.2}, {0, 0}},
			capsule: part(z(-0.03), z(-0.12), 0.035)})
		thigh := len(bones)
		bones = append(bones, bone{name: side(s, "thigh"), parent: 0, joint: geom.Vec3{X: s * 0.09, Z: -0.04},
			turn:    [3]limit{{-0.3, 0.5}, mirrorLimit(s, limit{-0.05, 0.2}), {-0.3, 0.3}},
			capsule: part(z(0), z(-0.42), 0.075)})
		shin := len(bones)
		// The knee bends backward: a turn about x by a negative angle.
		bones = append(bones, bone{name: side(s, "shin"), parent: thigh, joint: z(-0.43),
			turn:    [3]limit{{-1.1, 0}, {0, 0}, {0, 0}},
			capsule: part(z(0), z(-0.39), 0.05)})
		bones = append(bones, bone{name: side(s, "foot"), parent: shin, joint: z(-0.42),
			turn:    [3]limit{{-0.35, 0.35}, {0, 0}, {0, 0}},
			capsule: part(geom.Vec3{Y: -0.04}, geom.Vec3{Y: 0.14}, 0.04)})
	}
	return bones
}()

func side(s float64, name string) string {
	if s > 0 {
		return "left " + name
	}
	return "right " + name
}

// mirrorLimit is the range of a turn about y that moves a limb of side s
// outward by l: -s times it.
func mirrorLimit(s float64, l limit) limit {
	if s > 0 {
		return limit{-l.hi, -l.lo}
	}
	return l
}

// Humanoid is the procedural articulated body standing in for the
// paper's two characters: 19 capsules (2,848 triangles of about 5 cm
// edges) on a skeleton of 19 bones, each bone turned by up to three
// angles within joint limits: the ranges of walking, turning,
// side-stepping and idling, the paper's motions (arms swinging and held
// out a little, elbows and knees bent, the trunk and head turned), so
// that random angles make poses of the kind its motion capture gave.
type Humanoid struct {
	bones []bone
	verts [][]geom.Vec3 // per bone, its capsule's vertices in its frame
	tris  [][][3]int32
}

// NewHumanoid meshes the humanoid's capsules.
func NewHumanoid() *Humanoid {
	h := &Humanoid{bones: humanoidBones}
	for _, b := range h.bones {
		v, t := b.capsule.Mesh()
		h.verts, h.tris = append(h.verts, v), append(h.tris, t)
	}
	return h
}

// NumAngles is the number of joint angles a pose takes: three a bone.
func (h *Humanoid) NumAngles() int { return 3 * len(h.bones) }

// RandomAngles draws every joint angle uniformly within its limits.
func (h *Humanoid) RandomAngles(r *rand.Rand, angles []float64) {
	for i, b := range h.bones {
		for k, l := range b.turn {
			angles[3*i+k] = l.lo + r.Float64()*(l.hi-l.lo)
		}
	}
}

// Pose appends the humanoid's triangles posed at angles (NumAngles of
// them, three a bone: about x, y, then z) to tris, in the world frame
// (z up, the feet near z = 0 when standing).
func (h *Humanoid) Pose(angles []float64, tris []geom.Triangle) []geom.Triangle {
	world := make([]geom.Transform, len(h.bones))
	for i, b := range h.bones {
		local := geom.Transform{R: turn(angles[3*i : 3*i+3]), T: b.joint}
		if b.parent < 0 {
			world[i] = local
		} else {
			world[i] = world[b.parent].Mul(local)
		}
		for _, t := range h.tris[i] {
			v := h.verts[i]
			tris = append(tris, geom.Triangle{world[i].Apply(v[t[0]]), world[i].Apply(v[t[1]]), world[i].Apply(v[t[2]])})
		}
	}
	return tris
}

// turn is the rotation Rz(a[2])·Ry(a[1])·Rx(a[0]).
func turn(a []float64) mgl64.Mat3 {
	sx, cx := math.Sincos(a[0])
	sy, cy := math.Sincos(a[1])
	sz, cz := math.Sincos(a[2])
	rx := mgl64.Mat3{1, 0, 0, 0, cx, sx, 0, -sx, cx}
	ry := mgl64.Mat3{cy, 0, -sy, 0, 1, 0, sy, 0, cy}
	rz := mgl64.Mat3{cz, sz, 0, -sz, cz, 0, 0, 0, 1}
	return rz.Mul3(ry).Mul3(rx)
}
