package cab

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// Strategy names a way of refitting a hierarchy every frame.
type Strategy string

const (
	// CAB: the paper's parent-box rule (equations 1-4).
	CAB Strategy = "CAB"
	// OBB: each internal node oriented by the covariance of the surface it
	// bounds (the paper's OBB column), sized to hold its children's boxes.
	OBB Strategy = "OBB"
	// OBBCorners: each internal node fitted to the covariance of its two
	// children's 16 box corners (what FCL's bottom-up refit does).
	OBBCorners Strategy = "OBB-corners"
	// AABBPlus: axis-aligned boxes from all transformed link vertices.
	AABBPlus Strategy = "AABB+"
	// AABBStar: axis-aligned boxes from the 8 transformed corners of each
	// link's rest OBB; parents are unions.
	AABBStar Strategy = "AABB*"
)

// Strategies lists them in the paper's table order.
var Strategies = []Strategy{AABBPlus, AABBStar, OBB, OBBCorners, CAB}

// Refitter recomputes a hierarchy's boxes from link poses. Implementations
// own their scratch and allocate nothing per call.
type Refitter interface {
	Strategy() Strategy
	Refit(poses []geom.Transform)
}

// NewRefitter returns the strategy's refitter for h.
func NewRefitter(s Strategy, h *Hierarchy) (Refitter, error) {
	switch s {
	case CAB:
		return &cabRefit{h: h}, nil
	case OBB:
		return &covRefit{h: h, moments: make([]geom.SurfaceMoments, len(h.Nodes)), linkMoments: make([]geom.SurfaceMoments, len(h.Body.Links))}, nil
	case OBBCorners:
		return &cornerRefit{h: h}, nil
	case AABBPlus:
		return &aabbRefit{h: h, allVerts: true}, nil
	case AABBStar:
		return &aabbRefit{h: h}, nil
	}
	return nil, fmt.Errorf("cab: unknown strategy %q (have CAB, OBB, OBB-corners, AABB+, AABB*)", s)
}

// refitLeaves moves every link's rest OBB by its pose.
func refitLeaves(h *Hierarchy, poses []geom.Transform) {
	for l := range h.Leaves {
		b, x, out := &h.Body.Links[l].Box, &poses[l], &h.Leaves[l]
		out.Center = x.Apply(b.Center)
		out.Axes = geom.MulMat(&x.R, &b.Axes)
		out.Half = b.Half
	}
}

// cabRefit is the paper's rule.
type cabRefit struct{ h *Hierarchy }

func (r *cabRefit) Strategy() Strategy { return CAB }

func (r *cabRefit) Refit(poses []geom.Transform) {
	h := r.h
	refitLeaves(h, poses)
	for i := range h.Nodes {
		n := &h.Nodes[i]
		MergeCAB(&h.Boxes[i], h.Box(n.Child[0]), h.Box(n.Child[1]), h.junctionPoint(n, poses))
	}
}

// ParallelTolerance is the paper's test for near-parallel major axes:
// |a1·a2| above it (for unit vectors) and the minor axis a1×a2 is not
// well defined.
const ParallelTolerance = 1 - 1e-5

// MergeCAB is the parent-box rule of section 3.2.1, written into out. a1
// and a2 are the children's longest axes scaled to the boxes' full lengths
// and signed to point from the junction j toward each box's center. The
// parent's first axis is the longest of a1, a2 and the endpoint vector
// E = a1 - a2 (eq. 1), the second is a1×a2 normalised (eq. 2), the third
// their cross product (eq. 3). When a1 and a2 are nearly parallel (or
// antiparallel, as in a straight chain, where the paper's cross product
// vanishes too) the parent takes all the axes of the child with the longest
// axis. Extents and center come from projecting both child boxes on the
// axes (eq. 4).
func MergeCAB(out, b1, b2 *geom.OBB, j geom.Vec3) {
	a1, e1 := majorAxis(b1, j)
	a2, e2 := majorAxis(b2, j)
	if !(e1 > 0) || !(e2 > 0) || math.Abs(a1.Dot(a2)) > ParallelTolerance*e1*e2 {
		axes := &b1.Axes
		if e2 > e1 {
			axes = &b2.Axes
		}
		Enclose(out, b1, b2, axes)
		return
	}
	m, ml := a1, e1*e1
	if l := e2 * e2; l > ml {
		m, ml = a2, l
	}
	e := a1.Sub(a2)
	if l := e.LenSqr(); l > ml {
		m, ml = e, l
	}
	A1 := m.Mul(1 / math.Sqrt(ml))
	A2 := a1.Cross(a2)
	A2 = A2.Mul(1 / A2.Len())
	A3 := A1.Cross(A2)
	axes := geom.FromCols(A1, A2, A3)
	Enclose(out, b1, b2, &axes)
}

// majorAxis returns a box's longest axis scaled by its full length,
// pointing from j toward the box center, and that length.
func majorAxis(b *geom.OBB, j geom.Vec3) (geom.Vec3, float64) {
	a, l := b.MajorAxis()
	if a.Dot(b.Center.Sub(j)) < 0 {
		a = a.Neg()
	}
	return a, l
}

// Enclose writes into out the box with the given axes that holds both
// boxes: each child projects on axis A as its center's projection
// ± Σ h_k |A·b_k|.
func Enclose(out, b1, b2 *geom.OBB, axes *mgl64.Mat3) {
	m0, h0 := shadow(b1, b2, geom.Col(axes, 0))
	m1, h1 := shadow(b1, b2, geom.Col(axes, 1))
	m2, h2 := shadow(b1, b2, geom.Col(axes, 2))
	out.Axes = *axes
	out.Center = geom.MulVec(axes, geom.Vec3{X: m0, Y: m1, Z: m2})
	out.Half = geom.Vec3{X: h0, Y: h1, Z: h2}
}

// shadow returns the midpoint and half-length of the interval the two
// boxes project to on axis a.
func shadow(b1, b2 *geom.OBB, a geom.Vec3) (mid, half float64) {
	c1, r1 := a.Dot(b1.Center), b1.ProjectedRadius(a)
	c2, r2 := a.Dot(b2.Center), b2.ProjectedRadius(a)
	lo, hi := c1-r1, c1+r1
	if v := c2 - r2; v < lo {
		lo = v
	}
	if v := c2 + r2; v > hi {
		hi = v
	}
	return 0.5 * (lo + hi), 0.5 * (hi - lo)
}

// covRefit is the OBB strategy: each node's axes are the eigenvectors of
// the covariance of the link surfaces it bounds (Gottschalk's closed-form
// surface integrals; the link moments move analytically with the pose, no
// per-triangle work), and its extents hold its children's boxes, so that
// every parent contains its children as in the CAB rule. With the same
// leaves, OBB and CAB then report the same candidate pairs.
type covRefit struct {
	h           *Hierarchy
	moments     []geom.SurfaceMoments
	linkMoments []geom.SurfaceMoments
}

func (r *covRefit) Strategy() Strategy { return OBB }

func (r *covRefit) Refit(poses []geom.Transform) {
	h := r.h
	refitLeaves(h, poses)
	for l := range h.Body.Links {
		link := &h.Body.Links[l]
		c, q := geom.MovedSums(link.moments.Area, link.mc, link.mq, poses[l])
		r.linkMoments[l].SetSums(link.moments.Area, c, q)
	}
	for i := range h.Nodes {
		n := &h.Nodes[i]
		m := r.sum(n.Child[0])
		m2 := r.sum(n.Child[1])
		c1, q1 := m.Sums()
		c2, q2 := m2.Sums()
		var q geom.Sym3
		for k := range q {
			q[k] = q1[k] + q2[k]
		}
		r.moments[i].SetSums(m.Area+m2.Area, c1.Add(c2), q)
		_, cov := r.moments[i].Covariance()
		_, axes := cov.Eigen()
		Enclose(&h.Boxes[i], h.Box(n.Child[0]), h.Box(n.Child[1]), &axes)
	}
}

func (r *covRefit) sum(ref int32) *geom.SurfaceMoments {
	if ref >= 0 {
		return &r.moments[ref]
	}
	return &r.linkMoments[^ref]
}

// cornerRefit fits each parent to its children's 16 corners.
type cornerRefit struct {
	h   *Hierarchy
	pts [16]geom.Vec3
}

func (r *cornerRefit) Strategy() Strategy { return OBBCorners }

func (r *cornerRefit) Refit(poses []geom.Transform) {
	h := r.h
	refitLeaves(h, poses)
	for i := range h.Nodes {
		n := &h.Nodes[i]
		b1, b2 := h.Box(n.Child[0]), h.Box(n.Child[1])
		b1.Corners((*[8]geom.Vec3)(r.pts[:8]))
		b2.Corners((*[8]geom.Vec3)(r.pts[8:]))
		_, cov := geom.PointCovariance(r.pts[:])
		_, axes := cov.Eigen()
		Enclose(&h.Boxes[i], b1, b2, &axes)
	}
}

// aabbRefit builds axis-aligned boxes: leaves from all vertices (AABB+) or
// from the rest box's 8 corners (AABB*); parents are unions.
type aabbRefit struct {
	h        *Hierarchy
	allVerts bool
}

func (r *aabbRefit) Strategy() Strategy {
	if r.allVerts {
		return AABBPlus
	}
	return AABBStar
}

func (r *aabbRefit) Refit(poses []geom.Transform) {
	h := r.h
	for l := range h.Leaves {
		link := &h.Body.Links[l]
		x := poses[l]
		b := geom.EmptyAABB()
		if r.allVerts {
			for _, v := range link.Verts {
				b = b.Extend(x.Apply(v))
			}
		} else {
			for _, v := range link.corners {
				b = b.Extend(x.Apply(v))
			}
		}
		h.Leaves[l] = b.OBB()
	}
	for i := range h.Nodes {
		n := &h.Nodes[i]
		b1, b2 := h.Box(n.Child[0]), h.Box(n.Child[1])
		u := aabbOf(b1).Union(aabbOf(b2))
		h.Boxes[i] = u.OBB()
	}
}

// aabbOf reads an axis-aligned box stored as an OBB with identity axes.
func aabbOf(b *geom.OBB) geom.AABB {
	return geom.AABB{Min: b.Center.Sub(b.Half), Max: b.Center.Add(b.Half)}
}
