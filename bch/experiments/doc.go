// Package experiments reproduces the bounding cylinder hierarchy paper's
// experiments with package bch, as `gloved bench bch` prints them. It
// measures three bodies: a procedural articulated humanoid of the paper's
// size (Humanoid: 19 capsules, 2,848 triangles, on a skeleton of pelvis,
// abdomen, chest, neck, head, collarbones, arms with elbows, hands, legs
// with knees and feet, posed at random joint angles within walking and
// idling ranges), the procedural hand (its 16 link hulls) and the skinned
// WebXR hand, each hand posed from random frames of the simulated glove's
// grasp, tap, pinch and spread. The humanoid's cylinders stand on world up;
// a hand's on its long axis, the wrist frame's +y toward the fingers, the
// ground plane across it.
//
// Section 4.1: the construction time of each representation per pose
// (Construct: the BCH contour, all projected triangles and single
// cylinder, and the OBB tree of every triangle) and the query time on
// colliding cases (CollidingCases, QueryTimes: two random poses, a random
// turn about the axis and move over the ground plane, kept when the exact
// test collides; every case in sequence, many passes). Section 5.1: the
// exact distance between the meshes when each method first finds a
// collision as one slides toward the other, per maximum depth 0..12 and
// unlimited, and the critical depth where the mean comes within 1% of the
// unlimited one (Distances). Section 5.2: the volume the single cylinder
// and the BCH represent, normalised by the mesh's (Volumes).
//
// The paper's cylinders are infinitely tall; package bch's have the
// extent of what they hold along the axis. The contour tree is run both
// ways (Trees.Tall: the paper's), since a finite contour tree finds only
// outlines that meet at a common height and so misses collisions the
// paper's finds.
//
// Source: S. A. Stüvel, N. Magnenat-Thalmann, D. Thalmann, A. Egges, A. F.
// van der Stappen, "Hierarchical structures for collision checking
// between virtual characters", Computer Animation and Virtual Worlds
// 25(3-4), 333-342, 2014, sections 4 and 5,
// figures 3, 6 and 7 and table 1.
package experiments
