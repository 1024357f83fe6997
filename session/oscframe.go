package session

import (
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/selfcontact"
)

// FillFrame fills f's sample number, joints, link poses, the glove's
// controls, contacts, near list, self-contacts and pinch and fist events
// from the last frame, links
// and objects by name. The caller owns the rest (Seq, timing, touches,
// status). Each link's quaternion is the sign nearer the one the previous
// FillFrame gave it (geom.QuatTrack), or, the first time and when the
// sample stream has restarted since, the one with W >= 0. Once f's slices
// have grown it allocates nothing.
func (p *Pipeline) FillFrame(f *osc.Frame) {
	if len(f.Joints) != len(p.angles) {
		f.Joints = make([]float64, len(p.angles))
	}
	if len(f.Links) != len(p.poses) {
		f.Links = make([]osc.Pose, len(p.poses))
	}
	f.Sample = p.seq
	f.Controls = p.controls.last
	copy(f.Joints, p.angles[:])
	if p.restart {
		for l := range p.quats {
			p.quats[l].Reset()
		}
		p.restart = false
	}
	for l, x := range p.poses {
		f.Links[l] = osc.Pose{P: x.T.Mgl(), Q: p.quats[l].Next(x.Quat())}
	}
	objects := p.scene.Mesh.Objects
	f.Contacts, f.Near = f.Contacts[:0], f.Near[:0]
	for _, c := range p.scene.Contacts {
		f.Contacts = append(f.Contacts, osc.Contact{Link: handmodel.Link(c.Link).String(), Object: objects[c.Object], Depth: c.Depth, Point: c.Point.Mgl(), Normal: c.Normal.Mgl()})
	}
	for _, n := range p.scene.Near {
		f.Near = append(f.Near, osc.Near{Link: handmodel.Link(n.Link).String(), Object: objects[n.Object], Distance: n.Distance, Point: n.Point.Mgl()})
	}
	f.Self, f.Pinches, f.Fists = f.Self[:0], f.Pinches[:0], f.Fists[:0]
	if p.self == nil {
		return
	}
	for _, c := range p.self.Contacts {
		f.Self = append(f.Self, osc.SelfContact{A: c.A.String(), B: c.B.String(), Depth: c.Depth, Point: c.Point.Mgl()})
	}
	for _, e := range p.self.Events {
		switch e.Kind {
		case selfcontact.PinchEvent:
			f.Pinches = append(f.Pinches, osc.Pinch{Finger: fingerName(e.Finger), Begin: e.Begin, Distance: e.Distance})
		case selfcontact.FistEvent:
			f.Fists = append(f.Fists, osc.Fist{Begin: e.Begin, Distance: e.Distance})
		}
	}
}

// fingerName names a finger by its distal link: index, middle, ring or
// little.
func fingerName(tip handmodel.Link) string {
	name := tip.String()
	return name[:len(name)-1]
}
