package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/gloved/gloved/animation"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/internal/userfile"
)

func runHand(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("hand", "gloved hand [--length M] [--breadth M] [--left] [--forearm] [--meshes FILE] [--mesh FILE.glb] [--pose flat|fist|spread] [-o FILE.obj|FILE.glb [--force]]", out)
	length := fs.Float64("length", handmodel.DefaultParams.Length, "hand length, wrist crease to middle fingertip, m")
	breadth := fs.Float64("breadth", handmodel.DefaultParams.Breadth, "hand breadth across the knuckles, m")
	left := fs.Bool("left", false, "a left hand")
	forearm := fs.Bool("forearm", false, "add the forearm link")
	meshes := fs.String("meshes", "", "OBJ/STL/glTF file with per-link meshes (objects named palm, thumb1 .. little3, forearm)")
	mesh := fs.String("mesh", "", "a skinned hand (glTF/GLB with WebXR joint names, such as the WebXR generic hand): the links take its bones and shape, and the posed skin is exported with them")
	poseName := fs.String("pose", "flat", "pose for the export: flat, fist or spread")
	outPath := fs.String("o", "", "write the posed hand to this file: OBJ (.obj: the link meshes and frames) or binary glTF (.glb: a node per link, posed)")
	force := fs.Bool("force", false, "overwrite the -o file if it exists")
	if err := parseFlagsOnly(fs, args); err != nil {
		return err
	}
	if *force && *outPath == "" {
		return fmt.Errorf("%w: --force overwrites the -o file: give it only with -o FILE", errUsage)
	}
	glb, err := glbOr("-o", *outPath, ".obj")
	if err != nil {
		return err
	}
	if err := notAnInput("-o", *outPath, []string{*outPath}, []inputFile{{"--meshes", *meshes}, {"--mesh", *mesh}}); err != nil {
		return err
	}
	if err := refuseExisting("-o", *outPath, *force); err != nil {
		return err
	}
	// A skinned hand's size is its skin's (its bones place the joints):
	// a size given beside it would be ignored.
	for _, size := range []string{"length", "breadth"} {
		if *mesh != "" && flagSet(fs, size) {
			return fmt.Errorf("%w: --%s with --mesh: a skinned hand's size is its skin's; leave --%s out (or scale the hand in its .glb)", errUsage, size, size)
		}
	}
	h, err := buildHand(handmodel.Params{Length: *length, Breadth: *breadth, Right: !*left, Forearm: *forearm, Mesh: *mesh}, *meshes)
	if err != nil {
		return err
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
	printHand(out, h, poses, *poseName)
	if skin != nil {
		describeSkin(out, *mesh, skin, posed)
	}
	if *outPath == "" {
		return nil
	}
	if err := writeHandFile(*outPath, glb, *force, h, poses, skin, posed); errors.Is(err, errExists) {
		return err
	} else if err != nil {
		return fmt.Errorf("-o: %w", err)
	}
	fmt.Fprintf(out, "wrote %s\n", userfile.Name(*outPath))
	return nil
}

// glbOr says whether file, given to flag, is binary glTF (.glb, true) or
// has the other extension (or is none); anything else is a usage error.
func glbOr(flag, file, other string) (bool, error) {
	switch ext := strings.ToLower(filepath.Ext(file)); {
	case file == "" || ext == other:
		return false, nil
	case ext == ".glb":
		return true, nil
	}
	return false, fmt.Errorf("%w: %s %s: want a .glb or %s file", errUsage, flag, userfile.Name(file), other)
}

// buildHand builds the hand p describes, its links' meshes from the file
// meshes if one is given.
func buildHand(p handmodel.Params, meshes string) (*handmodel.Hand, error) {
	h, err := handmodel.New(p)
	if err != nil {
		if p.Mesh != "" {
			return nil, fmt.Errorf("--mesh: %w", err)
		}
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	if meshes != "" {
		if err := h.LoadLinkMeshes(meshes); err != nil {
			return nil, err
		}
	}
	return h, nil
}

// printHand prints the hand posed as poses: its size, and each link's
// parent, box half-extents and joint origin.
func printHand(out io.Writer, h *handmodel.Hand, poses []geom.Transform, poseName string) {
	fmt.Fprintf(out, "%s hand, length %.3f m, breadth %.3f m, %d links (pose %s, hand frame: +Y to the fingertips, palm facing -Z, +X to a right hand's little finger)\n",
		map[bool]string{true: "right", false: "left"}[h.Params.Right], h.Params.Length, h.Params.Breadth, h.NumLinks(), poseName)
	fmt.Fprintf(out, "%-8s %-8s %8s %8s %8s   %s\n", "link", "parent", "half x", "half y", "half z", "joint origin (m)")
	for l := range handmodel.Link(h.NumLinks()) {
		b := h.Geometry(l).Box
		parent := "-"
		if p := h.Parent(l); p >= 0 {
			parent = p.String()
		}
		o := poses[l].T
		fmt.Fprintf(out, "%-8s %-8s %8.4f %8.4f %8.4f   %7.4f %7.4f %7.4f\n", l, parent, b.Half.X, b.Half.Y, b.Half.Z, o.X, o.Y, o.Z)
	}
}

// writeHandFile writes the posed hand, and the posed skin of a skinned
// hand, to the file path, whole or not at all: binary glTF if glb, else
// OBJ. A file already at path is replaced only if force.
func writeHandFile(path string, glb, force bool, h *handmodel.Hand, poses []geom.Transform, skin *handmodel.Skin, posed *handmodel.SkinPose) error {
	write := func(w io.Writer) error { return writeHandOBJ(w, h, poses, skin, posed) }
	if glb {
		write = func(w io.Writer) error { return animation.WritePose(w, h, poses, skin, posed) }
	}
	o, err := userfile.CreateOutput(path)
	if err != nil {
		return err
	}
	if err := write(o); err != nil {
		return o.Abort(err)
	}
	return commitOutput("-o", o, force)
}

// writeHandOBJ writes the posed links, and the posed skin of a skinned
// hand, as one OBJ file.
func writeHandOBJ(w io.Writer, h *handmodel.Hand, poses []geom.Transform, skin *handmodel.Skin, posed *handmodel.SkinPose) error {
	if err := h.WriteOBJ(w, poses); err != nil || skin == nil {
		return err
	}
	base := 1
	for l := range handmodel.Link(h.NumLinks()) {
		base += len(h.Geometry(l).Verts)
	}
	return skin.WriteOBJ(w, posed, "skin", base)
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
		lo = geom.Vec3{X: min(lo.X, v.X), Y: min(lo.Y, v.Y), Z: min(lo.Z, v.Z)}
		hi = geom.Vec3{X: max(hi.X, v.X), Y: max(hi.Y, v.Y), Z: max(hi.Z, v.Z)}
	}
	fmt.Fprintf(out, "skin %s: %d vertices, %d triangles, %d joints; posed, it spans x %.3f..%.3f, y %.3f..%.3f, z %.3f..%.3f m\n",
		path, len(skin.Verts), len(skin.Tris), len(skin.Joints), lo.X, hi.X, lo.Y, hi.Y, lo.Z, hi.Z)
}
