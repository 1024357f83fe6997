// Package experiments reproduces the OBBTree paper's parallel close
// proximity experiment, which `gloved bench proximity` prints and plots.
// Two concentric tessellated spheres lie a gap eps apart, and the box
// tests of OBB and AABB trees are counted as eps shrinks (section 6; the
// paper's figure 5 shows log-log slopes of about -1 for OBBs and -2 for
// AABBs).
//
// Source: S. Gottschalk, M. C. Lin, D. Manocha, "OBBTree: A Hierarchical
// Structure for Rapid Interference Detection", Proceedings of ACM
// SIGGRAPH 1996, section 6.
package experiments
