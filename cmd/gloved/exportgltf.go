package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/gloved/gloved/animation"
	"github.com/gloved/gloved/internal/userfile"
	"github.com/gloved/gloved/session"
	"github.com/gloved/gloved/view"
)

// gltfFormat says whether --gltf FILE is binary glTF (.glb) or glTF JSON
// (.gltf); no file is neither, and not an error.
func gltfFormat(file string) (binary bool, err error) { return glbOr("--gltf", file, ".gltf") }

// maxGLTFFrames bounds the frames a glTF export holds, all in memory
// until the file is written: as many as replay --view's timeline keeps
// at full resolution.
const maxGLTFFrames = view.MaxTimelineFrames

// exportGLTF runs the session and writes it to path as one animated glTF
// file (see package animation). The file is readied before the first
// frame, so that a path that cannot be written fails at once, and put in
// place only when written whole: an export interrupted writes nothing.
// A file already at path is replaced only if force.
func exportGLTF(ctx context.Context, s *session.Session, limit int, path string, binary, force bool, out io.Writer) error {
	f, err := userfile.CreateOutput(path)
	if err != nil {
		return fmt.Errorf("--gltf: %w", err)
	}
	p := s.Pipeline
	rec := animation.NewRecorder(p.Hand(), p.Scene())
	err = runFrames(ctx, s, limit, func() error {
		if rec.Frames() == maxGLTFFrames {
			return fmt.Errorf("%s: longer than the %d frames a glTF export holds in memory; export a shorter recording, or all of it with --out DIR", userfile.Name(s.Spec.Recording), maxGLTFFrames)
		}
		return rec.Add(animation.Frame{Time: s.Sample.Time, Links: p.Poses(), Angles: p.Angles(), Contacts: p.Contacts()})
	})
	if err == nil && cutShort(ctx, rec.Frames(), limit) {
		err = fmt.Errorf("export interrupted after %d frames: nothing written to %s (a glTF file is written whole or not at all); export again and let it finish, or ask for fewer --frames", rec.Frames(), userfile.Name(path))
	}
	if err != nil {
		return f.Abort(err)
	}
	w := &countWriter{w: f}
	if err := rec.Write(w, binary); err != nil {
		return fmt.Errorf("--gltf: %w", f.Abort(err))
	}
	if err := commitOutput("--gltf", f, force); errors.Is(err, errExists) {
		return err
	} else if err != nil {
		return fmt.Errorf("--gltf: %w", err)
	}
	warnDamage(s)
	skin := ""
	if n := rec.Joints(); n > 0 {
		skin = fmt.Sprintf(", a skin of %d joints", n)
	}
	fmt.Fprintf(out, "exported %d frames, %d links%s and %d contact markers to %s (%d bytes)\n", rec.Frames(), p.Hand().NumLinks(), skin, rec.Markers(), userfile.Name(path), w.n)
	return nil
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}
