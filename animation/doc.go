// Package animation writes the hand and whole sessions as glTF 2.0, the
// format every viewer reads (Blender, Unity, three.js), and reads the
// animation back. A Recorder collects a session frame by frame (the
// links' world transforms, the skinned hand's joints, the contacts) and
// writes it as one animated file beside the static scene; WritePose
// writes one posed hand; Validate checks a document's structure against
// the specification; and a Clip samples its animation at any time as the
// specification's interpolation defines it, so tests can read an export
// back and compare it with the pipeline that made it.
//
// What a session's file holds: a node and mesh per scene object, named by
// the object, in world space; a node per link, named by the link, its
// hull in the link's frame, animated with translation and rotation
// (LINEAR); for a skinned hand, the skin as a real glTF skin whose joints
// (the WebXR hand's, from the wrist out) are animated the same way; and a
// pool of contact markers, contact-0 to contact-N-1 (N the most contacts
// of any frame), each a cone along +Y animated with STEP keys: at the
// contact point, +Y turned to the contact normal, stretched along +Y so
// that its length is the depth, scale 0 when unused.
// Keys are at each frame's sample time, in seconds from the first frame;
// every frame is kept: samples that share a stamp (parsed from one chunk
// of serial bytes) are spread evenly up to the next stamp, and a stamp
// that steps back counts as a repeat of the latest. Units are
// metres, as glTF's are.
//
// Sources: the glTF 2.0 specification (Khronos Group, version 2.0.1):
// section 3.5.3 (node transforms: translation, rotation as a unit
// quaternion x y z w, scale, composed T·R·S), 3.6.1 (buffers and buffer
// views), 3.6.2 (accessors: 3.6.2.4 data alignment, 3.6.2.5 bounds: min
// and max MUST be given for POSITION and animation inputs and MUST match
// the data), 3.7.2 (meshes), 3.7.3 (skins: joint hierarchy with a common
// root, inverse bind matrices, JOINTS_0 and WEIGHTS_0), 3.11 (animations:
// samplers with strictly increasing inputs in seconds, channels, output
// types per path, clamping outside the input range) and Appendix C
// (interpolation: STEP, LINEAR, and spherical linear interpolation of
// rotations along the short arc). The skinned hand is the WebXR generic
// hand in handmodel/testdata/webxr-generic-hand (see package handmodel).
package animation
