// Package envtest holds slow, obviously correct references for tests of
// code that works on scene meshes. They give the side of a closed surface
// by the generalized winding number, and the distance to a surface by
// trying every triangle, and share nothing with the fast paths they check.
//
// Source: the exactness standard of the product's brief (collision
// structures tested against brute force) and the non-convex depth of the
// CAB paper (H. Schmidl, N. Walker, M. C. Lin, "CAB: Fast Update of OBB
// Trees for Collision Detection between Articulated Bodies", Journal of
// Graphics Tools 9(2), 2004) section 4, whose references these are: A. Van
// Oosterom, J. Strackee, "The solid angle of a plane triangle", IEEE Trans.
// Biomed. Eng. 30(2), 1983, for the winding number.
package envtest
