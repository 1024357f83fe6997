package env

// What loading a scene costs at its peak: reading its files, the mesh,
// and preparing it for contact (each object's hull and OBB tree, its
// surface). Measured as the peak resident size (VmHWM) of `gloved run`
// on scenes of random triangles in a metre cube (binary STL, every
// triangle its own three vertices: the most vertices, and the longest
// triangles, a tree's groups can have), less that of the built-in scene
// (29 MB):
//
//	triangles  started on it          reloaded to it (SIGHUP)
//	  100 000   79 MB,   790 bytes a triangle
//	  300 000  266 MB,   887 bytes
//	1 000 000  791 MB,   791 bytes
//	1 500 000  1.03 GB,  690 bytes      1.56 GB, 1 040 bytes
//
// A reload holds the running scene while the new one is prepared, and
// prepares it twice (checked, then opened) before the collector frees
// the first. peakPerTriangle is a fifth over the most measured, and
// peakFixed covers the buffers every load allocates.
const (
	peakPerTriangle = 1250
	peakFixed       = 32 << 20
)

// PeakBytes is about the most memory loading and preparing a scene of
// tris triangles takes: the daemon weighs it against what the process
// may use before it builds the scene's trees (a Go program refused
// memory is ended by its runtime, a reload's scene with it).
func PeakBytes(tris int) uint64 {
	return peakFixed + peakPerTriangle*uint64(max(tris, 0))
}
