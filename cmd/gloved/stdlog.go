package main

import (
	"bytes"
	"io"
	"log"
	"os"
)

// libraryNoise are lines libraries print on the standard logger about
// trouble they recover from on their own. quickhull-go prints "Failed to
// solve horizon edge" when rounding stops it from closing a hull, which
// the box fits of a subdivided or CAD mesh's flat patches meet now and
// then; the box it gives is made to hold every point all the same
// (geom.Extents), so a user loading such a scene need not read it.
var libraryNoise = [][]byte{[]byte("Failed to solve horizon edge")}

// quietLibraries is the standard logger's writer: every line but the
// libraries' noise goes on to w.
type quietLibraries struct{ w io.Writer }

func (q quietLibraries) Write(p []byte) (int, error) {
	for _, n := range libraryNoise {
		if bytes.Contains(p, n) {
			return len(p), nil
		}
	}
	return q.w.Write(p)
}

func init() { log.SetOutput(quietLibraries{os.Stderr}) }
