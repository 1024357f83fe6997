package animation

import (
	"fmt"
	"math"
	"sort"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"

	"github.com/gloved/gloved/geom"
)

// TRS is a node's transform as glTF composes it: T·R·S (section 3.5.3).
type TRS struct {
	Translation mgl64.Vec3
	Rotation    mgl64.Quat
	Scale       mgl64.Vec3
}

// Transform returns the rigid part of x: its rotation, then its
// translation.
func (x TRS) Transform() geom.Transform {
	return geom.Transform{R: x.Rotation.Normalize().Mat4().Mat3(), T: geom.FromMgl(x.Translation)}
}

// Clip is one animation of a document, read to be sampled at any time.
type Clip struct {
	Name   string
	doc    *gltf.Document
	curves map[target]*curve
	parent []int // each node's parent, -1 for a root
}

// target is what a channel moves.
type target struct {
	node int
	path gltf.TRSProperty
}

// curve is a channel's keys: times in seconds and values (3 or 4 wide).
type curve struct {
	times  []float64
	values [][4]float64
	step   bool
}

// ReadClip reads animation a of doc, after checking the document with
// Validate. A CUBICSPLINE sampler, which gloved never writes, is an
// error.
func ReadClip(doc *gltf.Document, a int) (*Clip, error) {
	if err := Validate(doc); err != nil {
		return nil, err
	}
	if a < 0 || a >= len(doc.Animations) {
		return nil, fmt.Errorf("animation: clip %d does not exist (%d animations)", a, len(doc.Animations))
	}
	anim := doc.Animations[a]
	c := &Clip{Name: anim.Name, doc: doc, curves: map[target]*curve{}, parent: make([]int, len(doc.Nodes))}
	for i := range c.parent {
		c.parent[i] = -1
	}
	for i, n := range doc.Nodes {
		for _, ch := range n.Children {
			c.parent[ch] = i // Validate has made the graph a forest
		}
	}
	for ch, chn := range anim.Channels {
		smp := anim.Samplers[chn.Sampler]
		if smp.Interpolation == gltf.InterpolationCubicSpline {
			return nil, fmt.Errorf("animation: clip %d channel %d: CUBICSPLINE is not read", a, ch)
		}
		in, _ := locate(doc, smp.Input) // Validate has located both
		out, _ := locate(doc, smp.Output)
		cv := &curve{times: make([]float64, in.count), values: make([][4]float64, out.count), step: smp.Interpolation == gltf.InterpolationStep}
		for k := range in.count {
			cv.times[k] = in.raw(k, 0)
			for j := range out.comps {
				cv.values[k][j] = out.value(k, j)
			}
		}
		c.curves[target{*chn.Target.Node, chn.Target.Path}] = cv
	}
	return c, nil
}

// Sample returns node's transform at t seconds: each animated property
// as its channel gives it (Appendix C: the key's value at a key's time,
// STEP holding a key until the next, LINEAR interpolating translation
// and scale linearly and rotation by spherical linear interpolation along
// the short arc; clamped to the first and last keys outside them, as
// section 3.11 says), and the node's own value for a property no channel
// moves.
func (c *Clip) Sample(node int, t float64) TRS {
	n := c.doc.Nodes[node]
	tr, r, s := n.TranslationOrDefault(), n.RotationOrDefault(), n.ScaleOrDefault()
	x := TRS{Translation: tr, Rotation: mgl64.Quat{W: r[3], V: mgl64.Vec3{r[0], r[1], r[2]}}, Scale: s}
	if cv := c.curves[target{node, gltf.TRSTranslation}]; cv != nil {
		v := cv.at(t, false)
		x.Translation = mgl64.Vec3{v[0], v[1], v[2]}
	}
	if cv := c.curves[target{node, gltf.TRSRotation}]; cv != nil {
		v := cv.at(t, true)
		x.Rotation = mgl64.Quat{W: v[3], V: mgl64.Vec3{v[0], v[1], v[2]}}
	}
	if cv := c.curves[target{node, gltf.TRSScale}]; cv != nil {
		v := cv.at(t, false)
		x.Scale = mgl64.Vec3{v[0], v[1], v[2]}
	}
	return x
}

// World returns node's world transform at t seconds: its own and its
// ancestors' sampled transforms composed (section 3.5.3), scale included.
func (c *Clip) World(node int, t float64) mgl64.Mat4 {
	m := mgl64.Ident4()
	for n := node; n >= 0; n = c.parent[n] {
		m = c.Sample(n, t).Mat4().Mul4(m)
	}
	return m
}

// Mat4 is x as a matrix, T·R·S.
func (x TRS) Mat4() mgl64.Mat4 {
	t, s := x.Translation, x.Scale
	return mgl64.Translate3D(t[0], t[1], t[2]).Mul4(x.Rotation.Normalize().Mat4()).Mul4(mgl64.Scale3D(s[0], s[1], s[2]))
}

// Times returns the key times of node's channel for path, or nil if no
// channel moves it.
func (c *Clip) Times(node int, path gltf.TRSProperty) []float64 {
	if cv := c.curves[target{node, path}]; cv != nil {
		return cv.times
	}
	return nil
}

// at is the curve's value at t.
func (cv *curve) at(t float64, rotation bool) [4]float64 {
	n := len(cv.times)
	switch {
	case t <= cv.times[0]:
		return cv.values[0]
	case t >= cv.times[n-1]:
		return cv.values[n-1]
	}
	k := sort.SearchFloat64s(cv.times, t) // the first key at or after t
	if cv.times[k] == t {
		return cv.values[k]
	}
	k--
	if cv.step {
		return cv.values[k]
	}
	u := (t - cv.times[k]) / (cv.times[k+1] - cv.times[k])
	if rotation {
		return slerp(cv.values[k], cv.values[k+1], u)
	}
	var v [4]float64
	for j := range v {
		v[j] = (1-u)*cv.values[k][j] + u*cv.values[k+1][j]
	}
	return v
}

// slerp interpolates unit quaternions a and b at u along the short arc,
// as Appendix C writes it: with angle acos(|a·b|), b's sign taken as the
// dot product's. Where the angle vanishes it is the linear
// interpolation, normalised.
func slerp(a, b [4]float64, u float64) [4]float64 {
	d := a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3]
	sign := 1.0
	if d < 0 {
		sign, d = -1, -d
	}
	wa, wb := 1-u, sign*u
	if d < 1-1e-12 {
		ang := math.Acos(d)
		wa, wb = math.Sin(ang*(1-u))/math.Sin(ang), sign*math.Sin(ang*u)/math.Sin(ang)
	}
	var v [4]float64
	l := 0.0
	for j := range v {
		v[j] = wa*a[j] + wb*b[j]
		l += v[j] * v[j]
	}
	if d >= 1-1e-12 {
		for j := range v {
			v[j] /= math.Sqrt(l)
		}
	}
	return v
}

// Open reads a glTF 2.0 file (.glb or .gltf) into a document.
func Open(path string) (*gltf.Document, error) {
	doc, err := gltf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("animation: %w", err)
	}
	return doc, nil
}

// FindNode returns the index of the first node named name, or -1.
func FindNode(doc *gltf.Document, name string) int {
	for i, n := range doc.Nodes {
		if n.Name == name {
			return i
		}
	}
	return -1
}
