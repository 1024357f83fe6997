// Package env is the static scene the hand touches. It holds meshes loaded
// from OBJ, STL and glTF files (or the built-in demo scene, GraspScene) and
// the structures built over their triangles once, at load: the OBBTree,
// and for signed distance the Surface. Package traversal descends them.
//
// Source: S. Gottschalk, M. C. Lin, D. Manocha, "OBBTree: A Hierarchical
// Structure for Rapid Interference Detection", Proceedings of ACM
// SIGGRAPH 1996, 171-180. Section 4 gives the top-down
// build (split the longest box axis at the mean of the triangle centers, fall
// back to the next axis), section 5 the box test used in the traversal,
// section 6 the parallel-close-proximity experiment reproduced by
// `gloved bench proximity`, and section 7 the memory accounting the node
// layout here improves on.
//
// A Surface is one object prepared for signed distance: its own tree (which
// traversal.SurfaceQuery searches for the nearest point), its triangles'
// neighbours, and the side of the surface from the angle-weighted
// pseudonormal of the nearest feature (J. A. Bærentzen, H. Aanæs, "Signed
// distance computation using the angle weighted pseudonormal", IEEE TVCG
// 11(3), 2005), which tells inside from outside exactly on a closed,
// consistently wound mesh.
package env
