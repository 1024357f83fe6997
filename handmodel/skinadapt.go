package handmodel

import (
	"fmt"
	"maps"
	"slices"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// mirrorX is the reflection through the YZ plane.
var mirrorX = mgl64.Scale3D(-1, 1, 1)

// Mirrored returns the other hand: the skin reflected through its YZ
// plane, with its triangles turned so they still face out. Each joint's
// transform T becomes M·T·M, which is again a rigid motion, so the mirror
// of a posed skin is the mirrored skin posed by the mirrored joints.
func (s *Skin) Mirrored() *Skin {
	m := &Skin{
		Verts: make([]geom.Vec3, len(s.Verts)), Tris: make([][3]int32, len(s.Tris)),
		Joints: slices.Clone(s.Joints), Rest: make([]mgl64.Mat4, len(s.Rest)),
		InverseBind: make([]mgl64.Mat4, len(s.InverseBind)),
		Influence:   slices.Clone(s.Influence), Weight: slices.Clone(s.Weight),
	}
	for i, v := range s.Verts {
		m.Verts[i] = geom.Vec3{X: -v.X, Y: v.Y, Z: v.Z}
	}
	for i, t := range s.Tris {
		m.Tris[i] = [3]int32{t[0], t[2], t[1]}
	}
	for j := range s.Rest {
		m.Rest[j] = mirrorX.Mul4(s.Rest[j]).Mul4(mirrorX)
		m.InverseBind[j] = mirrorX.Mul4(s.InverseBind[j]).Mul4(mirrorX)
	}
	return m
}

// RenameJoints gives a rig's joints the names the hand model reads:
// names maps each new name (a WebXR joint) to the joint's name in the
// file. A name the file lacks, or two new names for one joint, is an
// error.
func (s *Skin) RenameJoints(names map[string]string) error {
	if len(names) == 0 {
		return nil
	}
	renamed := slices.Clone(s.Joints)
	done := map[int]string{}
	for _, to := range slices.Sorted(maps.Keys(names)) {
		from := names[to]
		j := slices.Index(s.Joints, from)
		if j < 0 {
			return fmt.Errorf("joint table: %s = %q: the skin has no joint %q", to, from, from)
		}
		if prev, ok := done[j]; ok {
			return fmt.Errorf("joint table: %s and %s both name joint %q", prev, to, from)
		}
		done[j] = to
		renamed[j] = to
	}
	seen := map[string]bool{}
	for _, n := range renamed {
		if seen[n] {
			return fmt.Errorf("joint table: after renaming, two joints are named %q", n)
		}
		seen[n] = true
	}
	s.Joints = renamed
	return nil
}
