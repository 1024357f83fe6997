// Package selfcontact finds where the hand touches itself: thumb against
// finger (a pinch), fingertips against the palm (a fist), fingers crossed.
// Spheres placed inside the hand and grouped in chains (package chains)
// are the broad phase: a chain per pair of fingers with the palm spheres
// between them, as the paper pairs the limbs. Each pair of links the
// spheres bring up is then decided exactly on the links' convex hulls
// (GJK, and EPA for the depth), so no sphere overlap is ever reported as
// a contact the links do not make. Pinch and fist are exact distances
// between the fingertips, the thumb tip and the palm, with hysteresis.
//
// Source: F. A. Madera, E. Ayala, F. Moo-Mena, "Self-collision Detection
// using Sphere Chains", GRAPP 2015 (the chains and their pairing of the
// limbs, section 4); the exact tests are package narrow's.
package selfcontact
