package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/internal/userfile"
	"github.com/gloved/gloved/session"
)

// runExport writes a session in plain formats so that anyone can check
// gloved's contacts with another collision library (--out DIR: the
// link-frame convex geometry the narrow phase uses, every link's world
// transform per frame, the world-space scene, and the contacts), or as one
// animated glTF file for any viewer (--gltf FILE).
func runExport(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("export", "gloved export --scene FILE[,FILE] (--recording FILE | --sim) (--out DIR | --gltf FILE [--force]) [--wrist-pose POSE] [--mesh FILE] [--no-accel] [--workers N]", out)
	o := addSessionFlags(fs)
	dir := fs.String("out", "", "output directory (created): links, frames, scene and contacts in OBJ, text and JSON")
	file := fs.String("gltf", "", "write the session as one animated glTF 2.0 file instead: binary (.glb) or JSON (.gltf)")
	force := fs.Bool("force", false, "overwrite the --gltf file if it exists")
	if pos, err := parseInterleaved(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	if (*dir == "") == (*file == "") {
		return fmt.Errorf("%w: export needs exactly one of --out DIR or --gltf FILE", errUsage)
	}
	if *force && *file == "" {
		return fmt.Errorf("%w: --force overwrites the --gltf file: give it only with --gltf FILE", errUsage)
	}
	binary, err := gltfFormat(*file)
	if err != nil {
		return err
	}
	if *file != "" {
		if err := notAnInput("--gltf", *file, []string{*file}, o.inputs()); err != nil {
			return err
		}
		if err := refuseExisting("--gltf", *file, *force); err != nil {
			return err
		}
		if o.sim && o.frames > maxGLTFFrames {
			return fmt.Errorf("%w: --frames %d: a glTF export holds at most %d frames in memory; ask for fewer, or export them with --out DIR", errUsage, o.frames, maxGLTFFrames)
		}
	}
	s, err := o.open(session.PipelineOptions{SelfContact: true})
	if err != nil {
		return err
	}
	defer s.Close()
	if *file != "" {
		return exportGLTF(ctx, s, o.limit(), *file, binary, *force, out)
	}
	body, scene := s.Pipeline.Body(), s.Pipeline.Scene()
	if err := notAnInput("--out", *dir, exportFiles(*dir, body), o.inputs()); err != nil {
		return err
	}
	ed, err := openExportDir("--out", *dir)
	if err != nil {
		return err
	}
	if err := writeLinks(ed.stage, body); err != nil {
		return ed.abandon(err)
	}
	if err := writeSceneOBJ(filepath.Join(ed.stage, "scene.obj"), scene); err != nil {
		return ed.abandon(err)
	}
	frames, err := exportFrames(ctx, s, o.limit(), ed.stage)
	if err != nil {
		return ed.abandon(err)
	}
	if err := ed.commit(body); err != nil {
		return err
	}
	warnDamage(s)
	if cutShort(ctx, frames, o.limit()) {
		return fmt.Errorf("export interrupted after %d frames: %s holds those frames, whole (frames.txt and contacts.jsonl end at frame %d); export again and let it finish for all of them", frames, userfile.Name(*dir), frames-1)
	}
	fmt.Fprintf(out, "exported %d frames, %d links and %d scene triangles to %s\n", frames, len(body.Links), len(scene.Tris), userfile.Name(*dir))
	return nil
}

// cutShort says whether a signal (ctx) ended a run of frames (an export,
// `gloved contacts`) before its last: a --sim session's limit, or a
// recording's end.
func cutShort(ctx context.Context, frames, limit int) bool {
	return ctx.Err() != nil && (limit == 0 || frames < limit)
}

// exportFiles are the files export --out writes into dir.
func exportFiles(dir string, body *cab.Body) []string {
	files := []string{filepath.Join(dir, "scene.obj"), filepath.Join(dir, "frames.txt"), filepath.Join(dir, "contacts.jsonl")}
	for _, link := range body.Links {
		files = append(files, filepath.Join(dir, "links", link.Name+".obj"))
	}
	return files
}

// writeLinks writes each link's convex geometry, in its link frame, as
// DIR/links/NAME.obj.
func writeLinks(dir string, body *cab.Body) error {
	for l, link := range body.Links {
		err := userfile.WriteFile(filepath.Join(dir, "links", link.Name+".obj"), func(w io.Writer) error {
			fmt.Fprintf(w, "# gloved link %s (%d): convex hull in the link frame, metres\no %s\n", link.Name, l, link.Name)
			for _, v := range link.Verts {
				fmt.Fprintf(w, "v %.9g %.9g %.9g\n", v.X, v.Y, v.Z)
			}
			for _, t := range link.Tris {
				fmt.Fprintf(w, "f %d %d %d\n", t[0]+1, t[1]+1, t[2]+1)
			}
			return nil // a write's error stays in w, for Commit
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// writeSceneOBJ writes the world-space scene, one OBJ object per scene object.
func writeSceneOBJ(path string, scene *env.Mesh) error {
	return userfile.WriteFile(path, func(w io.Writer) error {
		fmt.Fprintln(w, "# gloved scene, world space (Y-up, metres); triangles in the order gloved numbers them")
		for _, v := range scene.Verts {
			fmt.Fprintf(w, "v %.9g %.9g %.9g\n", v.X, v.Y, v.Z)
		}
		cur := int32(-1)
		for i, t := range scene.Tris {
			if scene.Object[i] != cur {
				cur = scene.Object[i]
				fmt.Fprintf(w, "o %s\n", scene.Objects[cur])
			}
			fmt.Fprintf(w, "f %d %d %d\n", t[0]+1, t[1]+1, t[2]+1)
		}
		return nil // a write's error stays in w, for Commit
	})
}

// exportFrames runs the session, writing every link's transform per frame
// to DIR/frames.txt and the contacts to DIR/contacts.jsonl. Interrupted,
// it puts both in place holding the frames run, each frame whole in both.
func exportFrames(ctx context.Context, s *session.Session, limit int, dir string) (int, error) {
	fw, err := userfile.CreateOutput(filepath.Join(dir, "frames.txt"))
	if err != nil {
		return 0, err
	}
	cw, err := userfile.CreateOutput(filepath.Join(dir, "contacts.jsonl"))
	if err != nil {
		return 0, fw.Abort(err)
	}
	fmt.Fprintln(fw, "# frame link r00 r01 r02 tx r10 r11 r12 ty r20 r21 r22 tz   (link frame -> world, row-major)")
	enc := json.NewEncoder(cw)
	frames := 0
	err = runFrames(ctx, s, limit, func() error {
		for l, x := range s.Pipeline.Poses() {
			r := x.R
			fmt.Fprintf(fw, "%d %s %.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g\n", s.Frames-1, handmodel.Link(l),
				r.At(0, 0), r.At(0, 1), r.At(0, 2), x.T.X, r.At(1, 0), r.At(1, 1), r.At(1, 2), x.T.Y, r.At(2, 0), r.At(2, 1), r.At(2, 2), x.T.Z)
		}
		fj := frameRecord(s)
		frames++
		return enc.Encode(&fj)
	})
	if err != nil {
		return 0, cw.Abort(fw.Abort(err))
	}
	if err := fw.Commit(); err != nil {
		return 0, cw.Abort(err)
	}
	return frames, cw.Commit()
}
