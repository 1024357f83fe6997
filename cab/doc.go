// Package cab will refit the hand's binary OBB hierarchy every frame with
// the CAB rule and traverse it against the scene's OBBTree.
//
// Source: shared/seeds/cab-articulated-obb-update.txt (equations 1-4, the
// near-parallel special case, tables 1-5), with the AABB variants of
// shared/seeds/aabb-lander.txt for comparison. Nothing is implemented here
// yet: CAB is issue #4; the scene side it tests against is package env.
package cab
