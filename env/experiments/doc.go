// Package experiments holds the scene experiments. It reproduces the
// OBBTree paper's parallel close proximity experiment, which `gloved bench
// proximity` prints and plots: two concentric tessellated spheres lie a
// gap eps apart, and the box tests of OBB and AABB trees are counted as
// eps shrinks (section 6; the paper's figure 5 shows log-log slopes of
// about -1 for OBBs and -2 for AABBs). And it builds the scene classes of
// `gloved bench scenes`, each at several sizes placed for the demo grasp:
// procedural ones (a ball, a torus, a room, a height field, a terrain as
// tools export it, a closed height-field block) and real meshes (scans
// and modelled objects from testdata/meshes, whose README records each
// one's source and licence), subdivided 1-to-4 for the larger sizes.
//
// Sources: S. Gottschalk, M. C. Lin, D. Manocha, "OBBTree: A Hierarchical
// Structure for Rapid Interference Detection", Proceedings of ACM
// SIGGRAPH 1996, section 6. The 1-to-4 split is that of C. Loop, "Smooth
// Subdivision Surfaces Based on Triangles", M.S. thesis, University of
// Utah, 1987, without its smoothing. The Stanford bunny and armadillo: the
// Stanford 3D Scanning Repository, https://graphics.stanford.edu/data/3Dscanrep/.
package experiments
