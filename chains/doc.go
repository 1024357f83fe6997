// Package chains approximates a deformable body with spheres placed inside
// its mesh and groups them into chains for self-collision detection. It is
// the broad phase of the hand touching itself (package selfcontact).
//
// Source: F. A. Madera, E. Ayala, F. Moo-Mena, "Self-collision Detection
// using Sphere Chains", GRAPP 2015 (the 10th International Conference on
// Computer Graphics Theory and Applications, SCITEPRESS):
//
//   - section 3: a disk of rays sweeps each region along its axis and the
//     ray hits place and size the spheres: j1 (the cross-section's centre,
//     the radius at which the sphere meets the surface), j2 (the minimum
//     enclosing ball of the region's vertices, for comparison) and j1' (j1
//     adjusted, moving in the disk's plane and scaling to fit the region);
//     a wide region (the paper's torso, here the palm) takes two spheres
//     per level. F, the gap between a region's vertices and its sphere,
//     measures each fit (section 6);
//   - section 4: chains are sets of spheres that are tested among
//     themselves; a sphere may belong to several;
//   - section 5.1: each sphere follows four pivot polygons of its region,
//     so it works on a skinned mesh as well as on rigid links;
//   - section 5.2: overlaps by squared distances, inside each chain (M1)
//     or over all spheres (M2), sequentially or a goroutine per chain.
//
// A sphere overlap is a candidate only: package selfcontact confirms it
// on the hand's links.
package chains
