// Package cab keeps a binary OBB hierarchy over an articulated body (a hand,
// a chain) up to date every frame. It refits the hierarchy bottom up from
// the links' boxes; package traversal descends it against the scene's
// trees and against other bodies.
//
// Source: H. Schmidl, N. Walker, M. C. Lin, "CAB: Fast Update of OBB Trees
// for Collision Detection between Articulated Bodies", Journal of Graphics
// Tools 9(2), 2004 (the CAB paper): section 3.2.1, equations
// 1-4, the parent-box rule this package calls CAB. The experiments of
// section 4 (tables 1-5), which `gloved bench cab` prints, are package
// cab/experiments. The AABB+ and AABB*
// strategies it is compared with are those of J. Lander, "When Two Hearts
// Collide: Axis-Aligned Bounding Boxes", Game Developer, February 2000:
// boxes from all transformed
// vertices, and from the 8 transformed corners of the rest box.
//
// Hierarchy shape. Leaves are the links' rest OBBs moved by the link
// transforms, the same for every OBB strategy. Internal nodes merge two
// subtrees that meet at a junction: a chain [i, j) is split at its middle
// link m into [i, m) and [m, j), which meet at link m's joint; a branching
// body merges a link's child subtrees pairwise in order (index with middle,
// ring with little, the two pairs, then the thumb), siblings that meet only
// through their common parent, whose junction is the midpoint of their
// attachment joints; finally the palm. "Pointing away from the joint" (the
// paper's a1, a2) means: each child's longest box axis, scaled to the box's
// full length, signed so that it points from the junction toward the
// child box's center.
package cab
