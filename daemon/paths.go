package daemon

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/gloved/gloved/internal/userfile"
	"github.com/gloved/gloved/session"
)

// Dir is the directory the config's relative paths are relative to: the
// config file's, absolute, so that messages name the path tried ("" for
// the built-in config, whose paths are built in or absolute).
func (c *Config) Dir() string {
	if c.Path == "" {
		return ""
	}
	d := filepath.Dir(c.Path)
	if abs, err := filepath.Abs(d); err == nil {
		return abs
	}
	return d
}

// Resolve returns p relative to the config's directory.
func (c *Config) Resolve(p string) string { return session.Resolve(c.Dir(), p) }

// Spec returns hand i's spec with its paths resolved.
func (c *Config) Spec(i int) session.Spec {
	s := c.Hands[i].Spec
	s.Recording, s.Calibration, s.Mesh = c.Resolve(s.Recording), c.Resolve(s.Calibration), c.Resolve(s.Mesh)
	if s.Serial() {
		s.Port = c.Resolve(s.Port) // a relative port too, as every path: a link beside the config
	}
	if p, err := c.OSC.Policy(); err == nil { // checked when the config was read
		s.Allow = p.Allow
	}
	return s
}

// paths are the file paths the config names, as written.
func (c *Config) paths() []string {
	var ps []string
	for _, f := range c.Scene.Files {
		ps = append(ps, f.Path)
	}
	for _, h := range c.Hands {
		ps = append(ps, h.Calibration, h.Recording, h.Mesh)
	}
	return ps
}

// explainMissing adds to the error for a file that does not exist, if the
// config named it by a relative path, that such a path is taken from the
// config file's directory: a config copied elsewhere keeps its paths.
func (c *Config) explainMissing(err error) error {
	var pe *fs.PathError
	if c.Path == "" || !errors.As(err, &pe) || !errors.Is(pe.Err, fs.ErrNotExist) {
		return err
	}
	for _, p := range c.paths() {
		if p != "" && !filepath.IsAbs(p) && userfile.Name(c.Resolve(p)) == pe.Path {
			return fmt.Errorf("%w (%s is relative to the config file's directory, %s)", err, userfile.Name(p), userfile.Name(c.Dir()))
		}
	}
	return err
}
