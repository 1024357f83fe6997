// Package experiments measures the sphere chains on the hand as the
// sphere-chain paper's section 6 measures them on a human body, as `gloved
// bench self` prints them. It measures the accuracy F of each sphere for
// the three fits (the paper's figure 13), the overlap tests within chains
// (M1) and over all spheres (M2), sequential and with goroutines (figures
// 15 and 16, on CPU), the overlaps per frame, and the spheres' false
// positives and negatives against the exact self test, for the procedural
// hand and the skinned WebXR hand over the simulated motions.
//
// Source: F. A. Madera, E. Ayala, F. Moo-Mena, "Self-collision Detection
// using Sphere Chains", GRAPP 2015, sections 3.2, 5.2 and 6.
package experiments
