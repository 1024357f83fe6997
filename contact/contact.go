package contact

import "github.com/gloved/gloved/geom"

// Contact is a link touching a scene object.
type Contact struct {
	Link, Object int
	// Depth is how far the link is in; Normal (unit) is the direction to
	// push the link out, from the object toward the link; Point is on the
	// object's surface.
	Depth  float64
	Normal geom.Vec3
	Point  geom.Vec3
	// Tris counts the object's triangles the link touches (0 when the
	// scene does not count them).
	Tris int
	// Exact is false when the depth is a conservative bound (see
	// narrow.PenetrationResult).
	Exact bool
}

// Near is a link within the proximity band of an object it does not touch.
type Near struct {
	Link, Object int
	Distance     float64
	Point        geom.Vec3 // closest point on the object
	LinkPoint    geom.Vec3 // closest point on the link
}

// Results are a frame's answers, each list ordered by link, then object.
type Results struct {
	Contacts []Contact
	Near     []Near
}
