package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/gloved/gloved/animation"
	"github.com/gloved/gloved/session"
)

// gltfFormat says whether --gltf FILE is binary glTF (.glb) or glTF JSON
// (.gltf); no file is neither, and not an error.
func gltfFormat(file string) (binary bool, err error) { return glbOr("--gltf", file, ".gltf") }

// exportGLTF runs the session and writes it to path as one animated glTF
// file (see package animation). The file is created before the first
// frame, so that a path that cannot be written fails at once, and removed
// again if the export fails.
func exportGLTF(ctx context.Context, s *session.Session, limit int, path string, binary bool, out io.Writer) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--gltf: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("--gltf: %w", cerr)
		}
		if err != nil {
			os.Remove(path)
		}
	}()
	p := s.Pipeline
	rec := animation.NewRecorder(p.Hand(), p.Scene())
	err = runFrames(ctx, s, limit, func() error {
		return rec.Add(animation.Frame{Time: s.Sample.Time, Links: p.Poses(), Angles: p.Angles(), Contacts: p.Contacts()})
	})
	if err != nil {
		return err
	}
	w := &countWriter{w: f}
	if err := rec.Write(w, binary); err != nil {
		return fmt.Errorf("--gltf %s: %w", path, err)
	}
	warnDamage(s)
	skin := ""
	if n := rec.Joints(); n > 0 {
		skin = fmt.Sprintf(", a skin of %d joints", n)
	}
	fmt.Fprintf(out, "exported %d frames, %d links%s and %d contact markers to %s (%d bytes)\n", rec.Frames(), p.Hand().NumLinks(), skin, rec.Markers(), path, w.n)
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
