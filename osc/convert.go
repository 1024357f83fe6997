package osc

import "github.com/gloved/gloved/geom"

// ConvertFrame writes f into dst in convention c, for a gloved profile
// with other coordinates: every position (link origins, contact and near
// points, self-contact and hand points) as c.Point, every normal as
// c.Direction, every link rotation as c.Quat (W kept, so a stream stays
// in its hemispheres), and every length (depths, distances) in c's unit.
// Joint angles, names, numbers, the controls, the feedback and the status are f's. dst's slices are
// reused: once grown it allocates nothing.
func ConvertFrame(dst, f *Frame, c geom.Convention) {
	dst.Seq, dst.Sample, dst.PipelineMS, dst.Status, dst.Rate = f.Seq, f.Sample, f.PipelineMS, f.Status, f.Rate
	dst.Controls = f.Controls
	dst.Feedback = f.Feedback
	dst.Joints = append(dst.Joints[:0], f.Joints...)
	dst.Touches = append(dst.Touches[:0], f.Touches...)
	dst.LOD = append(dst.LOD[:0], f.LOD...)
	dst.Links = dst.Links[:0]
	for _, p := range f.Links {
		dst.Links = append(dst.Links, Pose{P: c.Point(p.P), Q: c.Quat(p.Q)})
	}
	dst.Contacts = dst.Contacts[:0]
	for _, x := range f.Contacts {
		x.Depth, x.Point, x.Normal = c.Length(x.Depth), c.Point(x.Point), c.Direction(x.Normal)
		dst.Contacts = append(dst.Contacts, x)
	}
	dst.Near = dst.Near[:0]
	for _, x := range f.Near {
		x.Distance, x.Point = c.Length(x.Distance), c.Point(x.Point)
		dst.Near = append(dst.Near, x)
	}
	dst.Self = dst.Self[:0]
	for _, x := range f.Self {
		x.Depth, x.Point = c.Length(x.Depth), c.Point(x.Point)
		dst.Self = append(dst.Self, x)
	}
	dst.Pinches = dst.Pinches[:0]
	for _, x := range f.Pinches {
		x.Distance = c.Length(x.Distance)
		dst.Pinches = append(dst.Pinches, x)
	}
	dst.Fists = dst.Fists[:0]
	for _, x := range f.Fists {
		x.Distance = c.Length(x.Distance)
		dst.Fists = append(dst.Fists, x)
	}
	dst.Hands = dst.Hands[:0]
	for _, x := range f.Hands {
		x.Depth, x.Point, x.Normal = c.Length(x.Depth), c.Point(x.Point), c.Direction(x.Normal)
		dst.Hands = append(dst.Hands, x)
	}
	dst.HandNear = dst.HandNear[:0]
	for _, x := range f.HandNear {
		x.Distance = c.Length(x.Distance)
		dst.HandNear = append(dst.HandNear, x)
	}
}
