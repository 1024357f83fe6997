// Package experiments reproduces the OBBTree paper's measurements: the
// parallel close proximity experiment of section 6 (two concentric
// tessellated spheres a gap eps apart, box tests counted for OBB and AABB
// trees as eps shrinks; the paper's figure 5 shows log-log slopes of about
// -1 for OBBs and -2 for AABBs). `gloved bench proximity` prints and plots it.
//
// Source: shared/seeds/obbtree-gottschalk-1996.txt, section 6.
package experiments
