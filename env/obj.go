package env

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/internal/bytesize"
)

// The OBJ reader is written here rather than taken from a library: the Go
// OBJ parsers available (udhos/gwob v1.0.0 was evaluated) store float32,
// report bad lines only through a logger while keeping half-built faces,
// reject faces of more than four corners, and index normals unchecked. This
// one keeps float64, fails on the first bad element with its line, accepts
// any convex or concave polygon as a fan, and is fuzzed.

// maxOBJLine bounds one line of an OBJ file.
const maxOBJLine = 1 << 20

// ReadOBJ parses Wavefront OBJ geometry: `v` vertices (an optional w divides),
// `f` faces of three or more corners (v, v/vt, v//vn, v/vt/vn; negative
// indices count back from the latest vertex), split into triangle fans, and
// `o`/`g` lines, each of which starts a named object. Other statements are
// ignored. Triangles before any `o`/`g` belong to an object called
// defaultName. Errors name the line.
func ReadOBJ(r io.Reader, defaultName string) (*Mesh, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxFileBytes {
		return nil, fmt.Errorf("more than %s: %w", bytesize.Format(maxFileBytes), ErrTooBig)
	}
	return readOBJ(context.Background(), b, defaultName)
}

// readOBJ is ReadOBJ on a file in memory. A first pass counts the
// vertices, triangles and objects so that the second makes each array
// once, at its size: a file of n bytes makes at most 8n bytes of mesh (a
// face corner takes two bytes of file and adds a 16-byte triangle). It
// gives up with ctx's error once ctx ends.
func readOBJ(ctx context.Context, b []byte, defaultName string) (*Mesh, error) {
	b = bytes.TrimPrefix(b, utf8BOM) // an editor's byte-order mark is no part of line 1
	nv, nt, no, corners, err := countOBJ(ctx, b)
	if err != nil {
		return nil, err
	}
	m := &Mesh{
		Verts:   make([]geom.Vec3, 0, nv),
		Tris:    make([][3]int32, 0, nt),
		Object:  make([]int32, 0, nt),
		Objects: make([]string, 0, no),
	}
	obj := int32(-1)
	face := make([]int32, 0, corners)
	for line, rest := 1, b; len(rest) > 0; line++ {
		var l []byte
		l, rest, _ = bytes.Cut(rest, []byte("\n"))
		if len(l) >= maxOBJLine {
			return nil, fmt.Errorf("line %d: longer than %s", line, bytesize.Format(maxOBJLine))
		}
		if err := polled(ctx, line); err != nil {
			return nil, err
		}
		op, args := field(l)
		switch string(op) {
		case "v":
			v, err := parseOBJVertex(args)
			if err != nil {
				return nil, fmt.Errorf("line %d: vertex %d: %w", line, len(m.Verts)+1, err)
			}
			m.Verts = append(m.Verts, v)
		case "o", "g":
			obj = m.addObject(objectName(args, defaultName, len(m.Objects)))
		case "f":
			var err error
			if face, err = parseOBJFace(face[:0], args, len(m.Verts)); err != nil {
				return nil, fmt.Errorf("line %d: %w", line, err)
			}
			if obj < 0 {
				obj = m.addObject(defaultName)
			}
			for k := 1; k+1 < len(face); k++ {
				m.Tris = append(m.Tris, [3]int32{face[0], face[k], face[k+1]})
				m.Object = append(m.Object, obj)
			}
		}
	}
	return m, nil
}

// utf8BOM is the byte-order mark some editors begin a UTF-8 file with.
var utf8BOM = []byte{0xef, 0xbb, 0xbf}

// countOBJ returns how many vertices, triangles and objects readOBJ will
// make of b (at most: it stops at the first error), and the most corners
// of any face; ctx's error once ctx ends.
func countOBJ(ctx context.Context, b []byte) (verts, tris, objects, corners int, err error) {
	objects = 1 // the default object
	for line, rest := 1, b; len(rest) > 0; line++ {
		if err := polled(ctx, line); err != nil {
			return 0, 0, 0, 0, err
		}
		var l []byte
		l, rest, _ = bytes.Cut(rest, []byte("\n"))
		op, args := field(l)
		switch string(op) {
		case "v":
			verts++
		case "o", "g":
			objects++
		case "f":
			n := countFields(args)
			tris += max(n-2, 0)
			corners = max(corners, n)
		}
	}
	return verts, tris, objects, corners, nil
}

// field returns the first field of s, split as strings.Fields splits, and
// what follows it.
func field(s []byte) (f, rest []byte) {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRune(s[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += n
	}
	j := i
	for j < len(s) {
		r, n := utf8.DecodeRune(s[j:])
		if unicode.IsSpace(r) {
			break
		}
		j += n
	}
	return s[i:j], s[j:]
}

func countFields(s []byte) int {
	n := 0
	for f, r := field(s); len(f) > 0; f, r = field(r) {
		n++
	}
	return n
}

// objectName is an `o` or `g` line's name: its words joined by single
// spaces, or defaultName.n for the n-th object when it has none.
func objectName(args []byte, defaultName string, n int) string {
	var name []byte
	for f, r := field(args); len(f) > 0; f, r = field(r) {
		if len(name) > 0 {
			name = append(name, ' ')
		}
		name = append(name, f...)
	}
	if len(name) == 0 {
		return fmt.Sprintf("%s.%d", defaultName, n)
	}
	return string(name)
}

// parseOBJFace appends a face's corners, checked against the n vertices
// read so far, to face.
func parseOBJFace(face []int32, args []byte, n int) ([]int32, error) {
	if k := countFields(args); k < 3 {
		return nil, fmt.Errorf("face has %d corners, need at least 3", k)
	}
	for c, r := field(args); len(c) > 0; c, r = field(r) {
		i, err := parseOBJIndex(c, n)
		if err != nil {
			return nil, fmt.Errorf("face corner %q: %w", c, err)
		}
		face = append(face, i)
	}
	return face, nil
}

// parseOBJVertex reads a vertex's x y z and optional w.
func parseOBJVertex(args []byte) (geom.Vec3, error) {
	n := countFields(args)
	if n < 3 || n > 4 {
		return geom.Vec3{}, fmt.Errorf("want 3 or 4 coordinates, got %d", n)
	}
	c := [4]float64{3: 1}
	i := 0
	for s, r := field(args); len(s) > 0; s, r = field(r) {
		x, err := strconv.ParseFloat(string(s), 64)
		if err != nil {
			return geom.Vec3{}, fmt.Errorf("coordinate %q is not a number", s)
		}
		if !geom.Finite(x) {
			return geom.Vec3{}, fmt.Errorf("coordinate %q: %w", s, ErrNonFinite)
		}
		c[i] = x
		i++
	}
	if c[3] == 0 {
		return geom.Vec3{}, fmt.Errorf("weight w is 0")
	}
	v := geom.Vec3{X: c[0] / c[3], Y: c[1] / c[3], Z: c[2] / c[3]}
	if !v.Finite() {
		return geom.Vec3{}, fmt.Errorf("%v divided by w %v: %w", c[:3], c[3], ErrNonFinite)
	}
	return v, nil
}

// parseOBJIndex returns the 0-based vertex index of a face corner, checked
// against the n vertices read so far.
func parseOBJIndex(c []byte, n int) (int32, error) {
	s, _, _ := bytes.Cut(c, []byte("/"))
	i, err := strconv.ParseInt(string(s), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("vertex index %q is not an integer", s)
	}
	switch {
	case i > 0 && i <= int64(n):
		return int32(i - 1), nil
	case i < 0 && -i <= int64(n):
		return int32(int64(n) + i), nil
	}
	return 0, fmt.Errorf("%w: %d with %d vertices defined so far", ErrIndexRange, i, n)
}
