// Package contact turns a frame's candidate pairs into exact contacts.
// For each (link, scene object) pair the traversal finds, the object's
// contact method computes whether the link touches the object, how deep
// it is, the direction out and the point on the object's surface, or,
// when it does not touch, how near it is within the proximity band.
//
// Each scene object carries the method chosen for it when the scene
// loads (Scene, NewScene): the one its configuration names, else the
// registered method of least rank that takes its kind (Choose), a convex
// mesh by package convex's GJK and EPA, a closed non-convex mesh as a
// solid and an open one as a surface by package mesh's. Methods sit
// behind one small interface (Object: what the traversal needs of the
// object, and Collide), the way FCL and coal dispatch a query on a table
// indexed by the two shapes' types; here one side is always a link, a
// convex polytope, so the table has one index, the object's method. A
// new method is one package that registers itself (Register) and one
// import line in package all.
//
// What the methods share lives here: a link's measures (Link: its
// polytope, box, face planes, diameter and capsule) and the count of the
// triangles a contact touches (Counter), settled by the link's face
// planes below the traversal's front.
//
// Sources: the exact query stage of H. Schmidl, N. Walker and M. C. Lin,
// "CAB: Fast Update of OBB Trees for Collision Detection between
// Articulated Bodies", Journal of Graphics Tools 9(2), 2004 (section 4),
// and the dispatch of J. Pan, S. Chitta and D. Manocha, "FCL: A General
// Purpose Library for Collision and Proximity Queries", ICRA 2012 (its
// collision_func_matrix), which coal keeps.
package contact
