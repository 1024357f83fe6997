// Package envtest holds slow, obviously correct references for tests of
// code that works on scene meshes: the side of a closed surface by the
// generalized winding number, and the distance to a surface by trying
// every triangle. They share nothing with the fast paths they check.
//
// Source: the exactness standard of the product's brief (collision
// structures tested against brute force) and the non-convex depth of
// shared/seeds/cab-articulated-obb-update.txt section 4, whose references
// these are: A. Van Oosterom, J. Strackee, "The solid angle of a plane
// triangle", IEEE Trans. Biomed. Eng. 30(2), 1983, for the winding number.
package envtest
