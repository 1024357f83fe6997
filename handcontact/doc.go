// Package handcontact finds where two hands meet: every pair of a hand's
// link and another hand's link that touch (depth, normal, point) or lie
// within a proximity band (distance), frame after frame.
//
// The broad phase descends the two hands' CAB hierarchies together
// (traversal.BodyQuery), over the boxes the CAB paper's refit keeps around the
// links every frame (shared/seeds/cab-articulated-obb-update.txt), and
// the narrow phase confirms each candidate (link, link) pair exactly
// on the links' convex hulls (narrow: GJK, EPA warm-started per pair).
//
// Level of detail: the query can stop at a maximum depth of the
// hierarchies, as the bounding cylinder hierarchy's section 5.1 does
// (S. A. Stüvel et al., "Hierarchical structures for collision checking
// between virtual characters", CAVW 2014,
// shared/seeds/bounding-cylinder-hierarchy.txt): overlapping nodes at the
// limit count as a collision, reported with the level that produced it.
// The detector measures what each level costs and Choose picks the
// deepest that fits a frame's remaining budget.
//
// Why the CAB hierarchies and not a BCH: a BCH is built from the posed
// triangles every frame (package bch), which for a hand costs far more
// than the whole frame budget, while the CAB boxes are refitted for the
// scene query anyway; the README's "Hands meeting hands" section has the
// numbers.
package handcontact
