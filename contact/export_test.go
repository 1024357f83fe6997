package contact

// VisitEveryObject has s visit every object each frame, as without the
// tree over them, the accelerations still on: the brute loop the tree
// must answer as.
func (s *Scene) VisitEveryObject() { s.objects = nil }

// Reached is how many objects the last frame visited (every object
// without the tree).
func (s *Scene) Reached() int {
	if s.objects == nil {
		return len(s.Objects)
	}
	return len(s.near)
}
