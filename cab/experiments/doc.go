// Package experiments reproduces the CAB paper's experiments with package
// cab's hierarchies, as `gloved bench cab` prints them. They are two
// chains of 8 links swaying into each other or braided together, and the hand grasping
// a ball on a table, each run with every refit strategy against brute
// force. It holds what only the experiments need: generated chain bodies
// (rods, and rods dented like the paper's boat hulls), their motions, a
// body-vs-body hierarchy traversal, and the exact link queries that stand
// in for the paper's SWIFT++/DEEP narrow phase.
//
// Source: H. Schmidl, N. Walker, M. C. Lin, "CAB: Fast Update of OBB Trees
// for Collision Detection between Articulated Bodies", Journal of Graphics
// Tools 9(2), 2004, section 4: the measures
// (#coll, #false, t[query], t[upd], t[test], t[total]), tables 1-4 (chains
// of convex 3:1 and 6:1 links, non-convex links, braided chains; figures 2
// and 3) and table 5 (an articulated hand with a ball on a table, figure 4).
package experiments
