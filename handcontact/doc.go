// Package handcontact finds where two hands meet: every pair of a hand's
// link and another hand's link that touch (depth, normal, point) or lie
// within a proximity band (distance), frame after frame.
//
// The broad phase descends the two hands' CAB hierarchies together
// (traversal.BodyQuery), over the boxes the CAB paper's refit keeps around the
// links every frame, and
// the narrow phase confirms each candidate (link, link) pair exactly
// on the links' convex hulls (narrow: GJK, EPA warm-started per pair).
//
// Level of detail: the query can stop at a maximum depth of the
// hierarchies, as the bounding cylinder hierarchy's section 5.1 does
// (see Sources): overlapping nodes at the
// limit count as a collision, reported with the level that produced it.
// The detector measures what each level costs and Choose picks the
// deepest that fits a frame's remaining budget.
//
// Why the CAB hierarchies and not a BCH: a BCH is built from the posed
// triangles every frame (package bch), which for a hand costs far more
// than the whole frame budget, while the CAB boxes are refitted for the
// scene query anyway; docs/hand.md's "Hands meeting hands" has the
// numbers.
//
// Sources: H. Schmidl, N. Walker, M. C. Lin, "CAB: Fast Update of OBB Trees
// for Collision Detection between Articulated Bodies", Journal of Graphics
// Tools 9(2), 2004 (the
// hierarchies and their refit); S. A. Stüvel, N. Magnenat-Thalmann,
// D. Thalmann, A. Egges, A. F. van der Stappen, "Hierarchical structures
// for collision checking between virtual characters", Computer Animation
// and Virtual Worlds 25(3-4), 2014 (the depth-limited query, section 5.1).
package handcontact
