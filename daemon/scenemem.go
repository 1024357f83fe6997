package daemon

import (
	"fmt"
	"strings"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/internal/bytesize"
	"github.com/gloved/gloved/internal/memroom"
	"github.com/gloved/gloved/session"
)

// SceneTooBigError refuses a scene for the memory its preparation would
// take.
type SceneTooBigError struct {
	Files string // the scene's files, as the config names them
	Tris  int
	Need  uint64 // env.PeakBytes(Tris)
	Room  uint64 // what the process may still take
	By    string // the limit that says so (memroom.ByAddressLimit, ...)
}

func (e *SceneTooBigError) Error() string {
	return fmt.Sprintf("%s (%d triangles) needs about %s to load, and this process may take %s more (%s): simplify the mesh or raise the limit",
		e.Files, e.Tris, bytesize.Format(e.Need), bytesize.Format(e.Room), e.By)
}

// sceneFits refuses a scene of tris triangles (so far), from files, whose
// preparation (env.PeakBytes) would take more memory than m leaves the
// process: the Go runtime ends a process refused memory, and with it a
// running config a reload was to replace. Without a known limit it lets
// the scene through.
func sceneFits(files []session.SceneFile, tris int, m memroom.Machine) error {
	room, by, ok := m.Room()
	need := env.PeakBytes(tris)
	if !ok || need <= room {
		return nil
	}
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Path
	}
	return &SceneTooBigError{Files: strings.Join(names, ", "), Tris: tris, Need: need, Room: room, By: by}
}
