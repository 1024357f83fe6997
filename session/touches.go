package session

import (
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
)

// Touches turns a hand's frames of contacts into touch edges (osc.Touch:
// a link beginning or ending to touch an object), with the hysteresis of
// osc.TouchTracker. The daemon's frames and a timeline's are made with
// it, so both show the same touches.
type Touches struct {
	tracker  osc.TouchTracker
	touching [][2]int
	links    []string
	objects  []string
}

// NewTouches tracks the touches of a hand of the finger links on scene
// objects named objects.
func NewTouches(objects []string) *Touches {
	t := &Touches{objects: objects}
	for l := range handmodel.FingerLinks {
		t.links = append(t.links, handmodel.Link(l).String())
	}
	t.tracker.Reset(len(t.links), len(objects))
	return t
}

// Links returns how many links the tracker counts.
func (t *Touches) Links() int { return len(t.links) }

// Update appends the edges of the pipeline's last frame to out.
func (t *Touches) Update(p *Pipeline, out []osc.Touch) []osc.Touch {
	t.touching = t.touching[:0]
	for _, c := range p.Contacts() {
		t.touching = append(t.touching, [2]int{c.Link, c.Object})
	}
	return t.tracker.Update(t.touching, t.links, t.objects, out)
}
