// Package bch is the bounding cylinder hierarchy, a collision structure
// for articulated bodies such as people and hands. It is a binary tree of
// cylinders about one axis over a posed triangle set, rebuilt every frame,
// with the query of two such trees against each other to a maximum
// recursion depth, the level of detail.
//
// Source: S. A. Stüvel, N. Magnenat-Thalmann, D. Thalmann, A. Egges, A. F.
// van der Stappen, "Hierarchical structures for collision checking
// between virtual characters", Computer Animation and Virtual Worlds
// 25(3-4), 333-342, 2014. Section 3.1
// defines the tree: the triangles projected onto the plane perpendicular
// to the axis (world up for the paper's upright people; a pair of hands
// shares one), split in two by the plane normal to the wider of the two
// plane axes through the triangles' centroid, each node bounded by the
// smallest circle holding its projection (geom.MinCircle) and here also by
// its extent along the axis, splitting stopped at a threshold radius (the
// paper's 1 cm). All three of its variants are built: the
// all-projected-triangles tree, the contour tree (over the outline of the
// projected triangles' union, which the paper computed with the Clipper
// library and contour.go computes on a grid; pieces longer than twice the
// threshold are cut, as the paper halves them) and the single cylinder.
// Section 5.1's level of detail is the query's depth limit: overlapping
// nodes at the limit count as a collision.
//
// A triangles tree never misses a collision: every node's cylinder holds
// all its triangles, so two trees whose triangles meet have overlapping
// leaves (tested against the exact triangle test on seeded random input).
// A contour tree, as the paper says, detects outlines that meet, not one
// shape wholly inside the other's; and as its cylinders span only what
// they hold along the axis (the paper's are infinitely tall), only
// outlines that meet at a common height: it misses colliding bodies
// whose outlines cross elsewhere (a fifth to a half of the colliding
// cases of bch/experiments). Use the triangles tree where no collision
// may be missed.
package bch
