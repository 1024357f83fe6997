// Package narrow is the exact core of the contact methods. For two convex
// shapes it answers whether they overlap, their distance and closest
// points when apart (GJK, warm-started from a caller-owned per-pair
// cache), and when they overlap the penetration depth, the direction that
// separates them and the contact points (the expanding polytope
// algorithm).
//
// Sources: the exact query stage of the CAB paper (H. Schmidl, N. Walker,
// M. C. Lin, "CAB: Fast Update of OBB Trees for Collision Detection between
// Articulated Bodies", Journal of Graphics Tools 9(2), 2004, section 4:
// SWIFT++ for distance, DEEP for penetration depth between convex bodies),
// the cached separating planes of J. Lander, "When Two Hearts Collide:
// Axis-Aligned Bounding Boxes", Game Developer, February 2000, and the
// standard algorithms: E. G. Gilbert, D. W. Johnson, S. S. Keerthi (GJK,
// 1988) with C. Ericson's closest-point routines (Real-Time Collision
// Detection, 2005, 5.1), and G. van den Bergen's expanding polytope
// algorithm (2001).
//
// The shape of a query follows Box2D v3's b2ShapeDistance (E. Catto,
// box2d src/distance.c): const inputs in, a result struct out, and a
// caller-owned cache of vertex indices that warm-starts the next frame
// through one start-simplex helper (b2MakeSimplexFromCache). Like it, a
// query moves shape B into A's frame once and works there, so rounding and
// tolerances follow the shapes' own size, not their distance from the
// world origin; the answers go back to the world once, at the end. Queries
// only read polytopes, which goroutines may therefore share. Every
// tolerance is a named constant in tolerance.go with the reason for its
// value.
//
// Why EPA, and why it is robust here: penetration depth is the distance
// from the origin to the boundary of the Minkowski difference A - B, and
// EPA finds it by growing a polytope inside that boundary with support
// points. It needs no face list of the shapes (a ball of thousands of
// vertices costs a hill-climbing support query), and each step keeps a
// lower bound (the nearest face) and an upper bound (the support distance
// along it) on the depth. The failure modes seen in other libraries come
// from degenerate starts and unbounded growth; here the start is rebuilt
// into a solid tetrahedron when GJK ends on a lower simplex (touching
// shapes), faces are oriented by an interior point, the polytope lives in
// fixed arrays, and when they run out or the iteration cap is hit the
// answer is the upper bound along the best direction: a real separating
// translation, flagged inexact, never NaN. The contact points are weighed
// on the face that holds the origin's projection: where an edge crosses an
// edge, the nearest facet is a parallelogram split into coplanar
// triangles, and the other one would give points that do not face each
// other. The tests compare depth and normal against a slow exact reference
// (the minimum over every face normal and edge-edge cross product of both
// shapes) to 1e-9, and check that the points are Depth apart along Normal.
//
// That is the whole package: the exact core, which knows shapes and
// poses and nothing of scenes. The contact methods (package contact and
// its method packages) answer a frame's pairs with it.
package narrow
