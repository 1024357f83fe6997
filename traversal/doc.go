// Package traversal is every descent of a tree in gloved: which parts of
// which trees can meet, found by their boxes, before anything is
// computed exactly.
//
// Candidates is the frame's traversal stage: the hand's CAB hierarchy,
// refitted for the frame, against each scene object's OBBTree, together
// from the top (the larger box split first), down to the nodes and
// triangles each link's box meets; a contact method (package contact)
// then answers each (link, object) pair from that front. SceneQuery is
// the same descent against a whole scene's tree to its (link, triangle)
// pairs, the CAB paper's experiments' query; BodyQuery descends two
// hierarchies (two hands, or one hand against itself); Collider two
// OBBTrees; SurfaceQuery finds the nearest point of a surface, the
// search the contact methods' signed distances and proximity band run
// on. All work from explicit stacks the caller keeps (DescendPairs), so a
// query reused frame after frame allocates nothing.
//
// Sources: S. Gottschalk, M. C. Lin and D. Manocha, "OBBTree: A
// Hierarchical Structure for Rapid Interference Detection", SIGGRAPH 1996
// (section 5: the simultaneous descent of two trees, splitting the larger
// box); H. Schmidl, N. Walker and M. C. Lin, "CAB: Fast Update of OBB
// Trees for Collision Detection between Articulated Bodies", Journal of
// Graphics Tools 9(2), 2004 (section 3.2: the refitted hierarchy of an
// articulated body traversed against a static scene's tree the same way).
package traversal
