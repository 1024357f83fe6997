// Package geom is the geometry kernel shared by every collision structure
// in gloved. It holds rigid transforms, oriented and axis-aligned boxes,
// the 15-axis separating-axis box test, triangle overlap tests, a symmetric
// 3x3 eigen solver, convex hulls, the covariance OBB fit, and quaternions
// kept in one hemisphere over a stream (Hemisphere, QuatTrack; q and -q are
// one rotation, the double cover of K. Shoemake, "Animating Rotation with
// Quaternion Curves", SIGGRAPH 1985), and the coordinate conventions apps
// expect (Convention: gloved's right-handed, Y-up, -Z-forward metres,
// OpenXR's and WebXR's stage space; Unity's left-handed Y-up; Unreal's
// left-handed Z-up centimetres; ROS REP 103's right-handed Z-up, X-forward
// metres), positions, directions and rotations carried as M·p, M·n and
// M·R·Mᵀ.
//
// Sources: S. Gottschalk, M. C. Lin, D. Manocha, "OBBTree: A Hierarchical
// Structure for Rapid Interference Detection", Proceedings of ACM
// SIGGRAPH 1996: section 4 for the covariance of
// the convex hull surface and the box fit, section 5 for the separating-axis
// overlap test and its degenerate (zero thickness) boxes, section 7.1 for the
// rank-deficient fallback. The convex hull is quickhull: C. B. Barber,
// D. P. Dobkin, H. Huhdanpaa, "The Quickhull Algorithm for Convex Hulls",
// ACM TOMS 22(4), 1996. The smallest enclosing ball is Welzl's (1991)
// with Gärtner's move-to-front (1999). Conventions: the OpenXR 1.x
// specification's coordinate system (right-handed, +Y up, -Z forward,
// metres; WebXR's is the same), Unity's (left-handed, Y up, Z forward)
// and its OpenXR plugin's pose conversion, Unreal's (left-handed, Z up, X
// forward, centimetres), and ROS REP 103, "Standard Units of Measure and
// Coordinate Conventions" (X forward, Y left, Z up). All geometry is
// float64: points and directions are Vec3, a struct the compiler keeps in
// registers, with mgl64's method names and formulas (results are
// bit-for-bit mgl64's); rotations stay mgl64.Mat3 and quaternions
// mgl64.Quat, and code at the edges converts with FromMgl and Vec3.Mgl.
package geom
