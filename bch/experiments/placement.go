package experiments

import (
	"math"

	"github.com/gloved/gloved/bch"
	"github.com/gloved/gloved/geom"
)

// Placement puts a posed mesh on the ground plane: a turn by Theta
// (radians) about the axis through the origin, then a move by (U, V)
// along the plane's directions (those of the bch trees, so that tree
// coordinates and world agree).
type Placement struct {
	Theta, U, V float64
}

// Frame is a body's axis and the two plane directions of its trees
// (bch.Tree's U and V): a right-handed frame (U, V, Axis).
type Frame struct {
	Axis, U, V geom.Vec3
}

// FrameOf returns the frame of tree t.
func FrameOf(t *bch.Tree) Frame { return Frame{Axis: t.Axis, U: t.U, V: t.V} }

// Transform returns placement p as a rigid motion in frame f.
func (f Frame) Transform(p Placement) geom.Transform {
	s, c := math.Sincos(p.Theta)
	ru := f.U.Mul(c).Add(f.V.Mul(s))  // where U turns to
	rv := f.U.Mul(-s).Add(f.V.Mul(c)) // where V turns to
	// Column k of R is R e_k = U_k·ru + V_k·rv + A_k·A.
	col := func(k int) geom.Vec3 {
		return ru.Mul(f.U.At(k)).Add(rv.Mul(f.V.At(k))).Add(f.Axis.Mul(f.Axis.At(k)))
	}
	return geom.Transform{R: geom.FromCols(col(0), col(1), col(2)), T: f.U.Mul(p.U).Add(f.V.Mul(p.V))}
}

// Place makes dst tree src moved by p: every cylinder turned about the
// axis and moved in the plane, its extent along the axis kept. A cylinder
// about the axis moves rigidly with its triangles, so dst bounds the
// moved triangles as src bounds the posed ones; its splitting planes are
// the body's own horizontal axes, not the world's, as when a character's
// tree is built in its own frame and placed by its heading and position.
// dst shares src's Items and reuses its own Nodes.
func Place(dst, src *bch.Tree, p Placement) {
	s, c := math.Sincos(p.Theta)
	dst.Axis, dst.U, dst.V, dst.Items = src.Axis, src.U, src.V, src.Items
	dst.Nodes = append(dst.Nodes[:0], src.Nodes...)
	for i := range dst.Nodes {
		ci := &dst.Nodes[i].Circle
		ci.X, ci.Y = c*ci.X-s*ci.Y+p.U, s*ci.X+c*ci.Y+p.V
	}
}

// Compact returns a copy of t's nodes and items only: what a query reads,
// without the build's scratch buffers.
func Compact(t *bch.Tree) *bch.Tree {
	return &bch.Tree{Axis: t.Axis, U: t.U, V: t.V, Nodes: append([]bch.Node(nil), t.Nodes...), Items: append([]int32(nil), t.Items...)}
}

// Tall returns a compact copy of t whose cylinders are infinitely tall,
// as the paper's are: its query compares the disks alone.
func Tall(t *bch.Tree) *bch.Tree {
	c := Compact(t)
	for i := range c.Nodes {
		c.Nodes[i].Lo, c.Nodes[i].Hi = math.Inf(-1), math.Inf(1)
	}
	return c
}
