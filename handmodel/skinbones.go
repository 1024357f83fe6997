package handmodel

import (
	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// LinkBone is a skin joint's move (its world transform times its inverse
// bind matrix) as a link's: every joint rides rigidly on one link of the
// hand model (a phalanx's joint is its link's frame, a metacarpal rides on
// the palm, a tip on its phalanx), so at every pose
//
//	joint world · InverseBind = link world · Bind
//
// A renderer that places the links can skin the mesh with these alone.
type LinkBone struct {
	Link Link
	Bind mgl64.Mat4
}

// LinkBones returns each of the skin's joints, in the skin's order, as a
// LinkBone. It poses the hand at zero angles on its own buffers: the rig
// may be in use by a frame loop meanwhile.
func (r *SkinRig) LinkBones() []LinkBone {
	var zero Angles
	links := make([]geom.Transform, r.hand.NumLinks())
	r.hand.Pose(&zero, geom.Identity(), links)
	world := make([]mgl64.Mat4, len(r.Skin.Joints))
	r.jointsInto(&zero, links, world)
	out := make([]LinkBone, len(world))
	for j := range world {
		l := r.owner[j]
		inv := mat4(links[l].Inverse())
		move := mul4(&world[j], &r.Skin.InverseBind[j])
		out[j] = LinkBone{Link: l, Bind: mul4(&inv, &move)}
	}
	return out
}
