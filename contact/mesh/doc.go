// Package mesh is the contact method for scene objects that are not
// convex. It comes in two forms: "solid", a closed mesh (watertight,
// consistently wound) whose inside is solid, and "surface", an open
// surface with an outward side, the side its winding faces.
//
// A link touches the object when it meets one of its triangles; the
// traversal's front (the part of the object's tree the link's box meets)
// holds every such triangle, and the link's face planes settle almost
// all of them without GJK (contact.Counter). Its depth is measured by the
// deepest features instead of by convex pieces: the deepest link vertex
// inside the solid (or behind the open surface, away from its boundary),
// by its signed distance to the surface, and the deepest object vertex
// inside the link, by its distance to the link's nearest face. That is
// the local penetration depth of a vertex pushed into a face, continuous
// as vertices cross the surface, with the point on the object's surface;
// it needs no decomposition, so any closed mesh works as loaded. A link
// wholly inside a solid touches no triangle and is in contact all the
// same, with its deepest vertex's depth. A link that does not touch is
// near when within the proximity band: a best-first search of the
// object's tree for its nearest triangle, and the pair is passed over in
// the next frames while frame coherence proves the link cannot have
// reached the band.
//
// Sources: the CAB paper measures non-convex objects by convex pieces (H.
// Schmidl, N. Walker and M. C. Lin, "CAB: Fast Update of OBB Trees for
// Collision Detection between Articulated Bodies", Journal of Graphics
// Tools 9(2), 2004, section 4: SWIFT++ decomposes, DEEP measures each
// piece); gloved measures the deepest features, the other way its design
// allows. Inside and outside come from the angle-weighted pseudonormal of
// the nearest feature (J. A. Bærentzen and H. Aanæs, "Signed distance
// computation using the angle weighted pseudonormal", IEEE TVCG 11(3),
// 2005), in package env.
package mesh
