package env

import (
	"bufio"
	"fmt"
	"io"
)

// WriteOBJ writes m as a Wavefront OBJ that ReadOBJ reads back as the
// same mesh: every vertex to float64's full precision, each object's
// triangles after an "o" line of its name. Objects' triangles must come
// in runs, as Load lays them out.
func WriteOBJ(w io.Writer, m *Mesh) error {
	b := bufio.NewWriter(w)
	for _, v := range m.Verts {
		fmt.Fprintf(b, "v %.17g %.17g %.17g\n", v.X, v.Y, v.Z)
	}
	last := int32(-1)
	for i, t := range m.Tris {
		if o := m.Object[i]; o != last {
			fmt.Fprintf(b, "o %s\n", m.Objects[o])
			last = o
		}
		fmt.Fprintf(b, "f %d %d %d\n", t[0]+1, t[1]+1, t[2]+1)
	}
	if err := b.Flush(); err != nil {
		return fmt.Errorf("env: writing OBJ: %w", err)
	}
	return nil
}
