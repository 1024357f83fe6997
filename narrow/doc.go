// Package narrow will compute exact contacts for the candidate pairs the
// traversal finds: intersection, separation distance with closest points,
// penetration depth with normal and contact point, warm-started from
// caller-owned per-pair caches.
//
// Sources: the exact query stage of
// shared/seeds/cab-articulated-obb-update.txt (section 5), the cached
// separating planes of shared/seeds/aabb-lander.txt. Nothing is implemented
// here yet: the narrow phase is issue #5.
package narrow
