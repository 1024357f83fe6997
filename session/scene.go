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
// BuiltinScene), then its up axis, scale and pose, applied in that order.
// The daemon's [scene] files decode into it.
type SceneFile struct {
	Path      string    `toml:"path"`
	Scale     *float64  `toml:"scale"`     // metres per unit of the file, env.MinScale to env.MaxScale (nil: 1)
	Up        string    `toml:"up"`        // y (default) or z
	Pose      []float64 `toml:"pose"`      // its placement, tx ty tz qx qy qz qw like a wrist_pose (nil: none)
	Transform []float64 `toml:"transform"` // the old form of pose: qw qx qy qz tx ty tz
}

// Check reports a field that cannot be used, naming its key.
func (f SceneFile) Check() error {
	if f.Path == "" {
		return fmt.Errorf("path: missing")
	}
	if err := CheckBuiltin(f.Path); err != nil {
		return fmt.Errorf("path = %w", err)
	}
	if f.Scale != nil && !env.ScaleInRange(*f.Scale) {
		return fmt.Errorf("scale = %v: want %g to %g: the metres one unit of the file is (1, the default, for a file in metres)", *f.Scale, env.MinScale, env.MaxScale)
	}
	if f.Up != "" && f.Up != "y" && f.Up != "z" {
		return fmt.Errorf("up = %q: want \"y\" or \"z\"", f.Up)
	}
	_, err := f.placement()
	return err
}

// placement is the file's pose, from pose or the old transform; nil for
// neither.
func (f SceneFile) placement() (*geom.Transform, error) {
	key, v, order := "pose", f.Pose, PositionFirst
	switch {
	case f.Pose != nil && f.Transform != nil:
		return nil, fmt.Errorf("pose and transform: give the placement once, as pose")
	case f.Transform != nil:
		key, v, order = "transform", f.Transform, RotationFirst
	case f.Pose == nil:
		return nil, nil
	}
	p, err := ReadPose(v, order)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", key, err)
	}
	x, err := PoseFrom(p)
	return &x, err
}

// CheckBuiltin refuses a path that names a built-in scene there is none
// of ("builtin:" and another name than BuiltinScene's), listing them.
func CheckBuiltin(path string) error {
	if strings.HasPrefix(path, "builtin:") && path != BuiltinScene {
		return fmt.Errorf("%q: no such built-in scene: the built-in scenes are %s (a table with a ball)", path, BuiltinScene)
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
	return LoadSceneAdmit(ctx, files, dir, nil)
}

// LoadSceneAdmit is LoadSceneContext asking admit, if set, as each file's
// triangles are read and before they are prepared (env.LoadOptions.Admit),
// with the scene's triangles so far: its error ends the load, as it is.
func LoadSceneAdmit(ctx context.Context, files []SceneFile, dir string, admit func(tris int) error) (*env.Mesh, error) {
	scene := &env.Mesh{}
	for i, f := range files {
		if err := f.Check(); err != nil {
			return nil, fmt.Errorf("files[%d].%w", i, err)
		}
		var fileAdmit func(int) error
		if admit != nil {
			before := len(scene.Tris)
			fileAdmit = func(tris int) error { return admit(before + tris) }
		}
		m, err := f.load(ctx, dir, fileAdmit)
		if err != nil {
			return nil, err
		}
		scene.Append(m)
	}
	if len(scene.Tris) == 0 {
		return nil, fmt.Errorf("files: the scene is empty")
	}
	if w := scene.UniqueNames(); w != "" { // across files: each file's are unique already
		scene.Warnings = append(scene.Warnings, "the scene's files: "+w)
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

func (f SceneFile) load(ctx context.Context, dir string, admit func(tris int) error) (*env.Mesh, error) {
	x, err := f.placement()
	if err != nil {
		return nil, err
	}
	opt := env.LoadOptions{Up: env.Up(f.Up), Transform: x, Admit: admit}
	if f.Scale != nil {
		opt.Scale = *f.Scale
	}
	path := Resolve(dir, f.Path)
	if path != BuiltinScene {
		return env.LoadContext(ctx, path, opt)
	}
	m := env.GraspScene(5)
	if admit != nil {
		if err := admit(len(m.Tris)); err != nil {
			return nil, err
		}
	}
	if err := m.Place(opt); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	m.DetectConvex()
	return m, nil
}
