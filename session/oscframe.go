package session

import (
	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
)

// FillFrame fills f's joints, link poses, contacts and near list from the
// last frame, links and objects by name. The caller owns the rest (Seq,
// timing, touches, status). Once f's slices have grown it allocates
// nothing.
func (p *Pipeline) FillFrame(f *osc.Frame) {
	if len(f.Joints) != len(p.angles) {
		f.Joints = make([]float64, len(p.angles))
	}
	if len(f.Links) != len(p.poses) {
		f.Links = make([]osc.Pose, len(p.poses))
	}
	copy(f.Joints, p.angles[:])
	for l, x := range p.poses {
		f.Links[l] = osc.Pose{P: x.T, Q: mgl64.Mat4ToQuat(x.R.Mat4()).Normalize()}
	}
	objects := p.scene.Objects
	f.Contacts, f.Near = f.Contacts[:0], f.Near[:0]
	for _, c := range p.solver.Contacts {
		f.Contacts = append(f.Contacts, osc.Contact{Link: handmodel.Link(c.Link).String(), Object: objects[c.Object], Depth: c.Depth, Point: c.Point, Normal: c.Normal})
	}
	for _, n := range p.solver.Near {
		f.Near = append(f.Near, osc.Near{Link: handmodel.Link(n.Link).String(), Object: objects[n.Object], Distance: n.Distance, Point: n.Point})
	}
}
