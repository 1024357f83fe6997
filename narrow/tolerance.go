package narrow

// The narrow phase's numerical tolerances. Queries run in shape A's frame
// (see pair), so no coordinate carries the shapes' distance from the world
// origin: rounding is about 1e-16 of the size of the shapes themselves,
// the sum of their radii about their own origins, and every length
// tolerance is relative to that size. Each value leaves several orders of
// magnitude between rounding noise below it and any distance a hand could
// resolve above it.
const (
	// gjkRelTol ends GJK when a new support point would shrink |v|² by
	// less than this fraction of it: about 4500 ulps, above the rounding
	// of the support dot products yet far below any real progress.
	gjkRelTol = 1e-12

	// overlapTol is the distance, relative to the size, below which the
	// shapes count as touching: four orders above the rounding of
	// coordinates of that size, so touching shapes never iterate on noise.
	overlapTol = 1e-12

	// boxDistanceTol is the relative slack taken off GJK's distance from a
	// link to a tree node's box so that it stays a lower bound: GJK stops
	// within gjkRelTol of |v|² (so about 1e-6 of the distance) above it.
	boxDistanceTol = 1e-6

	// collinearTol is the sine of a triangle's angle below which it is a
	// segment: its normal would then be rounding noise.
	collinearTol = 1e-12

	// flatTol is the volume, relative to the cube of a tetrahedron's size,
	// below which it is flat: its orientation tests sum several products
	// each rounded at 1e-16, so smaller volumes have no reliable sign.
	flatTol = 1e-15

	// distinctTol is the distance, relative to the size, within which a
	// new EPA start vertex is one already held (the same as overlapTol:
	// what GJK cannot tell apart, EPA must not build on).
	distinctTol = 1e-12

	// epaRelTol ends EPA when the support along the nearest face's normal
	// is within this fraction of the size of that face: depths are then
	// exact to 1e-10 of the size, ten times finer than the references
	// check, and two orders above the rounding of the face planes.
	epaRelTol = 1e-10

	// epaSeeTol is how far, relative to the size, a new EPA vertex must
	// stand in front of a face for the face to see it. One lying in the
	// plane of coplanar faces would otherwise be seen, by rounding, from
	// some of them and not others between them, and the faces it removes
	// would not form one region with one rim: the polytope would fold.
	// The planes round at about 1e-16 of the size; the margin stays a
	// decade below keptFlatTol's check of convexity.
	epaSeeTol = 1e-13

	// keptFlatTol is how far, relative to the size, a vertex of a kept EPA
	// polytope may stand in front of one of its faces for the polytope to
	// count as convex: the rounding of face planes, a hundred times below
	// epaRelTol, so a depth found from a kept polytope is as exact as one
	// found from scratch.
	keptFlatTol = 1e-12

	// warmMinDepth is the depth, relative to the size, below which
	// PenetrationCached leaves a pair to the cold queries: ten times
	// epaRelTol and a thousand times keptFlatTol, so that a polytope only
	// convex to keptFlatTol, or one thinner than the tolerances, never
	// decides that shapes overlap.
	warmMinDepth = 1e-9

	// minDen is the Gram determinant below which a face has no area for
	// barycentric weights: only zero or subnormal values are that small,
	// and dividing by them would overflow.
	minDen = 1e-300

	// insideTol is how far below zero a barycentric weight may fall, from
	// rounding, for its point to count as inside the triangle.
	insideTol = 1e-12

	// coplanarTol is how far apart the unit normals of two EPA faces may be
	// for them to lie in one plane: triangles of one facet differ only by
	// rounding, and distinct facets of a hull by far more.
	coplanarTol = 1e-9
)

func sq(x float64) float64 { return x * x }
