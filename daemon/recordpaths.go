package daemon

import (
	"fmt"

	"github.com/gloved/gloved/internal/userfile"
)

// checkRecordings refuses a hand that records into a file the config
// reads: the config file itself, a calibration, a mesh, a replayed
// recording or a scene file. The recorder moves an existing file aside
// to NAME.1.EXT and writes its recording in its place, so such a config
// would move its own input away. Paths are compared as the daemon opens
// them: relative ones from the config's directory, symlinks followed
// where they exist, the same file under two names (a hard link) caught.
func (c *Config) checkRecordings() error {
	inputs := c.inputs()
	for i := range c.Hands {
		h := &c.Hands[i]
		if !h.Spec.Records() {
			continue
		}
		key := fmt.Sprintf("hand[%d].recording", i)
		for _, in := range inputs {
			if userfile.Same(c.Resolve(h.Recording), in.path) {
				return fmt.Errorf("%s = %q is %s: a hand records into a file the config does not read; name another file", key, h.Recording, in.key)
			}
		}
		for j := range i {
			if o := &c.Hands[j]; o.Spec.Records() && userfile.Same(c.Resolve(h.Recording), c.Resolve(o.Recording)) {
				return fmt.Errorf("%s = %q is hand[%d].recording too: each hand records into its own file", key, h.Recording, j)
			}
		}
	}
	return nil
}

// input is a file the config reads, resolved, and the key that names it.
type input struct{ key, path string }

// inputs are the files the config reads, resolved.
func (c *Config) inputs() []input {
	var in []input
	if c.Path != "" {
		in = append(in, input{"the config file itself", c.Path})
	}
	add := func(key, p string) {
		if p != "" {
			in = append(in, input{key, c.Resolve(p)})
		}
	}
	for i, h := range c.Hands {
		add(fmt.Sprintf("hand[%d].calibration", i), h.Calibration)
		add(fmt.Sprintf("hand[%d].mesh", i), h.Mesh)
		if h.Spec.Replays() {
			add(fmt.Sprintf("hand[%d].recording", i), h.Recording)
		}
	}
	for i, f := range c.Scene.Files {
		add(fmt.Sprintf("scene.files[%d].path", i), f.Path)
	}
	return in
}
