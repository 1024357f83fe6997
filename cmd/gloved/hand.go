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
	fs := newFlagSet("hand", "gloved hand [--length M] [--breadth M] [--left] [--forearm] [--meshes FILE] [--pose flat|fist|spread] [-o FILE.obj]", out)
	length := fs.Float64("length", handmodel.DefaultParams.Length, "hand length, wrist crease to middle fingertip, m")
	breadth := fs.Float64("breadth", handmodel.DefaultParams.Breadth, "hand breadth across the knuckles, m")
	left := fs.Bool("left", false, "a left hand")
	forearm := fs.Bool("forearm", false, "add the forearm link")
	meshes := fs.String("meshes", "", "OBJ/STL/glTF file with per-link meshes (objects named palm, thumb1 .. little3, forearm)")
	poseName := fs.String("pose", "flat", "pose for the export: flat, fist or spread")
	objPath := fs.String("o", "", "write the posed link meshes and frames to this OBJ file")
	if pos, err := parseInterleaved(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	h, err := handmodel.New(handmodel.Params{Length: *length, Breadth: *breadth, Right: !*left, Forearm: *forearm})
	if err != nil {
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
	fmt.Fprintf(out, "%s hand, length %.3f m, breadth %.3f m, %d links (pose %s, hand frame: +Y to the fingertips, +X to the thumb of a right hand, palm facing -Z)\n",
		map[bool]string{true: "left", false: "right"}[*left], *length, *breadth, h.NumLinks(), *poseName)
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
	if *objPath == "" {
		return nil
	}
	f, err := os.Create(*objPath)
	if err != nil {
		return err
	}
	if err := h.WriteOBJ(f, poses); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(out, "wrote %s\n", *objPath)
	return nil
}
