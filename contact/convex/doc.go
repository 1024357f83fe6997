// Package convex is the contact method for convex scene objects. The
// object is its convex hull, a solid, and a link against it is measured
// exactly by GJK (distance, closest points) and EPA (penetration depth,
// the direction that separates them, contact points), warm-started from
// the pair's last frame. A link wholly inside the solid touches none of
// its triangles and still has its true depth.
//
// Sources: the exact query stage of H. Schmidl, N. Walker and M. C. Lin,
// "CAB: Fast Update of OBB Trees for Collision Detection between
// Articulated Bodies", Journal of Graphics Tools 9(2), 2004 (section 4,
// where SWIFT++ measures the distance and DEEP the penetration depth of
// convex bodies); here E. G. Gilbert, D. W. Johnson and S. S. Keerthi's
// GJK (IEEE Journal of Robotics and Automation 4(2), 1988) and G. van den
// Bergen's expanding polytope algorithm (Collision Detection in
// Interactive 3D Environments, Morgan Kaufmann, 2003) do both, in
// package narrow.
package convex
