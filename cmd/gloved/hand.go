package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

func runHand(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("hand", "gloved hand [--length M] [--breadth M] [--left] [--forearm] [--meshes FILE] [--mesh FILE.glb] [--pose flat|fist|spread] [-o FILE.obj]", out)
	length := fs.Float64("length", handmodel.DefaultParams.Length, "hand length, wrist crease to middle fingertip, m")
	breadth := fs.Float64("breadth", handmodel.DefaultParams.Breadth, "hand breadth across the knuckles, m")
	left := fs.Bool("left", false, "a left hand")
	forearm := fs.Bool("forearm", false, "add the forearm link")
	meshes := fs.String("meshes", "", "OBJ/STL/glTF file with per-link meshes (objects named palm, thumb1 .. little3, forearm)")
	mesh := fs.String("mesh", "", "a skinned hand (glTF/GLB with WebXR joint names, such as the WebXR generic hand): the links take its bones and shape, and the posed skin is exported with them")
	poseName := fs.String("pose", "flat", "pose for the export: flat, fist or spread")
	objPath := fs.String("o", "", "write the posed link meshes and frames to this OBJ file")
	if pos, err := parseInterleaved(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	h, err := handmodel.New(handmodel.Params{Length: *length, Breadth: *breadth, Right: !*left, Forearm: *forearm, Mesh: *mesh})
	if err != nil {
		if *mesh != "" {
			return fmt.Errorf("--mesh: %w", err)
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *meshes != "" {
		if err := h.LoadLinkMeshes(*meshes); err != nil {
			return err
		}
	}
	q, err := handmodel.NamedPose(*poseName)
	if err != nil {
		return fmt.Errorf("%w: --pose: %v", errUsage, err)
	}
	q.Clamp(&h.Limits)
	poses := make([]geom.Transform, h.NumLinks())
	h.Pose(&q, geom.Identity(), poses)
	skin, posed, err := poseSkin(h, &q, poses)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s hand, length %.3f m, breadth %.3f m, %d links (pose %s, hand frame: +Y to the fingertips, palm facing -Z, +X to a right hand's little finger)\n",
		map[bool]string{true: "left", false: "right"}[*left], h.Params.Length, h.Params.Breadth, h.NumLinks(), *poseName)
	fmt.Fprintf(out, "%-8s %-8s %8s %8s %8s   %s\n", "link", "parent", "half x", "half y", "half z", "joint origin (m)")
	for l := range handmodel.Link(h.NumLinks()) {
		b := h.Geometry(l).Box
		parent := "-"
		if p := h.Parent(l); p >= 0 {
			parent = p.String()
		}
		o := poses[l].T
		fmt.Fprintf(out, "%-8s %-8s %8.4f %8.4f %8.4f   %7.4f %7.4f %7.4f\n", l, parent, b.Half[0], b.Half[1], b.Half[2], o[0], o[1], o[2])
	}
	if skin != nil {
		describeSkin(out, *mesh, skin, posed)
	}
	if *objPath == "" {
		return nil
	}
	f, err := os.Create(*objPath)
	if err != nil {
		return err
	}
	err = h.WriteOBJ(f, poses)
	if err == nil && skin != nil {
		base := 1
		for l := range handmodel.Link(h.NumLinks()) {
			base += len(h.Geometry(l).Verts)
		}
		err = skin.WriteOBJ(f, posed, "skin", base)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("-o %s: %w", *objPath, err)
	}
	fmt.Fprintf(out, "wrote %s\n", *objPath)
	return nil
}

// poseSkin poses a skinned hand's skin for q, the links posed as poses
// (none for the procedural hand).
func poseSkin(h *handmodel.Hand, q *handmodel.Angles, poses []geom.Transform) (*handmodel.Skin, *handmodel.SkinPose, error) {
	rig := h.Rig()
	if rig == nil {
		return nil, nil, nil
	}
	var p handmodel.SkinPose
	if err := rig.Pose(q, poses, &p); err != nil {
		return nil, nil, err
	}
	return rig.Skin, &p, nil
}

// describeSkin prints a posed skin's size and extent.
func describeSkin(out io.Writer, path string, skin *handmodel.Skin, p *handmodel.SkinPose) {
	lo, hi := p.Verts[0], p.Verts[0]
	for _, v := range p.Verts {
		for k := range 3 {
			lo[k], hi[k] = min(lo[k], v[k]), max(hi[k], v[k])
		}
	}
	fmt.Fprintf(out, "skin %s: %d vertices, %d triangles, %d joints; posed, it spans x %.3f..%.3f, y %.3f..%.3f, z %.3f..%.3f m\n",
		path, len(skin.Verts), len(skin.Tris), len(skin.Joints), lo[0], hi[0], lo[1], hi[1], lo[2], hi[2])
}
