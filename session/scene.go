package session

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// BuiltinScene names the shipped scene, a table with a ball on it, in
// place of a file path.
const BuiltinScene = "builtin:grasp"

// SceneFile is one mesh file placed in the world: its path (or
// BuiltinScene), then its up axis, scale and transform, applied in that
// order. The daemon's [scene] files decode into it.
type SceneFile struct {
	Path      string    `toml:"path"`
	Scale     float64   `toml:"scale"`
	Up        string    `toml:"up"`        // y (default) or z
	Transform []float64 `toml:"transform"` // qw qx qy qz tx ty tz
}

// Check reports a field that cannot be used, naming its key.
func (f SceneFile) Check() error {
	if f.Path == "" {
		return fmt.Errorf("path: missing")
	}
	if !(f.Scale >= 0) || !geom.Finite(f.Scale) {
		return fmt.Errorf("scale = %v: want a positive number", f.Scale)
	}
	if f.Up != "" && f.Up != "y" && f.Up != "z" {
		return fmt.Errorf("up = %q: want \"y\" or \"z\"", f.Up)
	}
	if f.Transform != nil {
		if _, err := PoseFrom(f.Transform); err != nil {
			return fmt.Errorf("transform: %v", err)
		}
	}
	return nil
}

// Resolve returns path relative to dir, unless it is absolute, built in,
// or dir is empty.
func Resolve(dir, path string) string {
	if path == "" || dir == "" || filepath.IsAbs(path) || strings.HasPrefix(path, "builtin:") {
		return path
	}
	return filepath.Join(dir, path)
}

// LoadScene loads scene files, relative paths from dir, into one scene.
// A file that cannot be used is named by its place in the list (files[i]);
// one that does not load, by its path.
func LoadScene(files []SceneFile, dir string) (*env.Mesh, error) {
	return LoadSceneContext(context.Background(), files, dir)
}

// LoadSceneContext is LoadScene, given up, with ctx's error, soon after
// ctx ends (env.LoadContext).
func LoadSceneContext(ctx context.Context, files []SceneFile, dir string) (*env.Mesh, error) {
	scene := &env.Mesh{}
	for i, f := range files {
		if err := f.Check(); err != nil {
			return nil, fmt.Errorf("files[%d].%w", i, err)
		}
		m, err := f.load(ctx, dir)
		if err != nil {
			return nil, err
		}
		scene.Append(m)
	}
	if len(scene.Tris) == 0 {
		return nil, fmt.Errorf("files: the scene is empty")
	}
	return scene, nil
}

// ScenePaths is the scene of files given by path alone, as on a command
// line ("a.obj,b.stl").
func ScenePaths(list string) []SceneFile {
	var files []SceneFile
	for _, p := range strings.Split(list, ",") {
		files = append(files, SceneFile{Path: p})
	}
	return files
}

func (f SceneFile) load(ctx context.Context, dir string) (*env.Mesh, error) {
	opt := env.LoadOptions{Scale: f.Scale, Up: env.Up(f.Up)}
	if f.Transform != nil {
		x := mustPose(f.Transform)
		opt.Transform = &x
	}
	path := Resolve(dir, f.Path)
	if path != BuiltinScene {
		return env.LoadContext(ctx, path, opt)
	}
	m := env.GraspScene(5)
	if err := m.Place(opt); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	m.DetectConvex()
	return m, nil
}
