package env

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/gloved/gloved/geom"
)

// The STL reader is written here rather than taken from hschendel/stl
// v1.0.4, which stays as the tests' reference on valid files: that library
// decides "binary" only when the size matches the declared count exactly,
// so a truncated binary file is parsed as ASCII and reported as `ASCII
// header must start with "solid "`, and its ASCII parser allocates a 4 kB
// scanner per line (4.5 GB for a 1 MB file of blank lines). Here a binary
// file's declared count is checked against its size before anything is
// allocated, and an ASCII file is read in place.

const (
	stlHeader   = 84 // 80 bytes of free text, then a uint32 triangle count
	stlTriangle = 50 // a normal and three corners as float32, 2 attribute bytes
	// stlMinFacet is the shortest ASCII facet: "facet normal 0 0 0 outer
	// loop vertex 0 0 0 vertex 0 0 0 vertex 0 0 0 endloop endfacet" and a
	// separator. It bounds the facets a file can hold.
	stlMinFacet = 86
)

// readSTL reads a binary or ASCII STL file. A binary file is one object,
// named name; an ASCII file has an object per "solid" block, named by the
// block (a block without a name is name, or name.N after the first). STL
// repeats every corner, so identical corners are welded into shared
// vertices.
func readSTL(ctx context.Context, b []byte, name string) (*Mesh, error) {
	m := &Mesh{}
	var corners []geom.Vec3
	var err error
	if stlIsBinary(b) {
		// A binary STL's 80-byte header is free text, often an exporter's
		// banner, so it does not name the object.
		if corners, err = readBinarySTL(ctx, b); err != nil {
			return nil, err
		}
		m.Objects = []string{name}
		m.Object = make([]int32, len(corners)/3)
	} else {
		var solids []stlSolid
		var ignored int
		if solids, corners, ignored, err = readASCIISTL(ctx, b); err != nil {
			return nil, err
		}
		m.Object = make([]int32, 0, len(corners)/3)
		for i, s := range solids {
			if s.name == "" {
				s.name = name
				if i > 0 {
					s.name = fmt.Sprintf("%s.%d", name, i)
				}
			}
			o := m.addObject(s.name)
			for range s.tris {
				m.Object = append(m.Object, o)
			}
		}
		if ignored > 0 {
			m.Warnings = append(m.Warnings, fmt.Sprintf("%d bytes after the last endsolid are not a solid and were ignored", ignored))
		}
	}
	var ids []int32
	m.Verts, ids = weld(corners)
	m.Tris = make([][3]int32, len(ids)/3)
	for t := range m.Tris {
		m.Tris[t] = [3]int32{ids[3*t], ids[3*t+1], ids[3*t+2]}
	}
	return m, nil
}

// stlIsBinary decides the format. A file whose size is 84 + 50 × its
// declared triangle count is binary whatever its header says (some
// exporters begin a binary header with "solid "). Otherwise a file that
// begins with "solid" and whose first kilobyte after its first line is
// text is ASCII; anything else is binary, and reading it says how it is
// truncated. The first line is the solid's name, which may hold anything
// (names are made printable later).
func stlIsBinary(b []byte) bool {
	if len(b) >= stlHeader && int64(len(b)) == stlHeader+stlTriangle*int64(binary.LittleEndian.Uint32(b[80:])) {
		return true
	}
	head := b[:min(len(b), 1024)]
	if !bytes.HasPrefix(bytes.TrimLeft(head, " \t\r\n"), []byte("solid")) {
		return true
	}
	nl := bytes.IndexByte(bytes.TrimLeft(head, " \t\r\n"), '\n')
	if nl < 0 && len(head) < len(b) {
		return true // a first line of a kilobyte is no solid's name
	}
	first := bytes.TrimLeft(head, " \t\r\n")
	if nl >= 0 {
		first = first[:nl]
	}
	if bytes.IndexByte(first, 0) >= 0 {
		return true // a NUL is no name's: a binary header padded with them
	}
	for _, c := range head[len(head)-len(bytes.TrimLeft(head, " \t\r\n"))+nl+1:] {
		if c < ' ' && !isSpace(c) || c == 0x7f {
			return true
		}
	}
	return false
}

// readBinarySTL returns the corners of a binary STL's triangles, three
// per triangle. Bytes after the declared triangles are ignored.
func readBinarySTL(ctx context.Context, b []byte) ([]geom.Vec3, error) {
	if len(b) < stlHeader {
		return nil, fmt.Errorf("truncated binary STL: %d bytes, the header alone takes %d", len(b), stlHeader)
	}
	n := int64(binary.LittleEndian.Uint32(b[80:]))
	if room := int64(len(b)-stlHeader) / stlTriangle; n > room {
		return nil, fmt.Errorf("truncated binary STL: %d triangles declared, room for %d", n, room)
	}
	corners := make([]geom.Vec3, 3*n)
	for i := range corners {
		if err := polled(ctx, i); err != nil {
			return nil, err
		}
		off := stlHeader + stlTriangle*(i/3) + 12*(i%3+1)
		var f [3]float32
		for k := range f {
			f[k] = math.Float32frombits(binary.LittleEndian.Uint32(b[off+4*k:]))
		}
		corners[i] = geom.Vec3{X: float64(f[0]), Y: float64(f[1]), Z: float64(f[2])}
		if !corners[i].Finite() {
			return nil, fmt.Errorf("facet %d corner %d %v: %w", i/3+1, i%3+1, f, ErrNonFinite)
		}
	}
	return corners, nil
}

// stlSolid is one "solid name ... endsolid" block of an ASCII STL: its
// name and how many facets it holds.
type stlSolid struct {
	name string
	tris int
}

// readASCIISTL returns the solids of an ASCII STL and the corners of their
// facets, in order: each solid is "solid name", then facets of "facet
// normal x y z outer loop", three "vertex x y z", "endloop endfacet", then
// "endsolid" and the rest of its line. Anything after the last endsolid
// that does not begin another solid is ignored, and its size returned.
func readASCIISTL(ctx context.Context, b []byte) ([]stlSolid, []geom.Vec3, int, error) {
	tok := stlTokens{b: b, line: 1}
	corners := make([]geom.Vec3, 0, 3*(len(b)/stlMinFacet+1))
	var solids []stlSolid
	facet := 0
	for {
		rest := tok.b
		w := tok.next()
		if len(w) == 0 {
			return solids, corners, 0, nil
		}
		if !bytes.HasPrefix(w, []byte("solid")) {
			if len(solids) == 0 {
				return nil, nil, 0, fmt.Errorf("line %d: want solid, got %.40q", tok.line, w)
			}
			return solids, corners, len(bytes.TrimLeft(rest, " \t\r\n\v\f")), nil
		}
		if len(solids) == maxObjects {
			return nil, nil, 0, fmt.Errorf("line %d: more than %d solids: %w", tok.line, maxObjects, ErrTooBig)
		}
		// The name is the rest of the line, and may be glued on ("solidcube").
		name := append(append([]byte(nil), w[len("solid"):]...), tok.restOfLine()...)
		solid := stlSolid{name: string(bytes.TrimSpace(name))}
	facets:
		for {
			facet++
			if err := polled(ctx, facet); err != nil {
				return nil, nil, 0, err
			}
			t := tok.next()
			if bytes.HasPrefix(t, []byte("endsolid")) {
				t = t[:len("endsolid")] // "endsolidcube": the name again, glued on
			}
			switch string(t) {
			case "endsolid":
				tok.restOfLine() // the name again, if any
				facet--
				break facets
			case "facet":
				var err error
				if corners, err = tok.facet(corners); err != nil {
					return nil, nil, 0, fmt.Errorf("line %d: facet %d: %w", tok.line, facet, err)
				}
				solid.tris++
			case "":
				return nil, nil, 0, fmt.Errorf("line %d: the file ends before endsolid (truncated?)", tok.line)
			default:
				return nil, nil, 0, fmt.Errorf("line %d: want facet or endsolid, got %.40q", tok.line, t)
			}
		}
		solids = append(solids, solid)
	}
}

// stlTokens splits ASCII STL into whitespace-separated words in place,
// counting lines.
type stlTokens struct {
	b    []byte
	line int // of the word last returned
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// next returns the next word, or nil at the end.
func (s *stlTokens) next() []byte {
	i, lines := 0, 0
	for i < len(s.b) && isSpace(s.b[i]) {
		if s.b[i] == '\n' {
			lines++
		}
		i++
	}
	j := i
	for j < len(s.b) && !isSpace(s.b[j]) {
		j++
	}
	w := s.b[i:j]
	s.b = s.b[j:]
	if len(w) > 0 { // at the end, stay on the last word's line
		s.line += lines
	}
	return w
}

// restOfLine returns what is left of the current line and moves past its
// end.
func (s *stlTokens) restOfLine() []byte {
	l, rest, found := bytes.Cut(s.b, []byte("\n"))
	s.b = rest
	if found {
		s.line++
	}
	return l
}

// facet reads the rest of a facet after its "facet" and appends its
// corners.
func (s *stlTokens) facet(corners []geom.Vec3) ([]geom.Vec3, error) {
	if err := s.expect("normal"); err != nil {
		return nil, err
	}
	if _, err := s.vec(); err != nil { // the normal is recomputed, not kept
		return nil, err
	}
	if err := s.expect("outer", "loop"); err != nil {
		return nil, err
	}
	for k := 1; k <= 3; k++ {
		if err := s.expect("vertex"); err != nil {
			return nil, err
		}
		v, err := s.vec()
		if err != nil {
			return nil, err
		}
		if !v.Finite() {
			return nil, fmt.Errorf("corner %d %v: %w", k, v, ErrNonFinite)
		}
		corners = append(corners, v)
	}
	return corners, s.expect("endloop", "endfacet")
}

// expect reads the words want.
func (s *stlTokens) expect(want ...string) error {
	for _, w := range want {
		if t := s.next(); string(t) != w {
			return fmt.Errorf("want %s, got %.40q", w, t)
		}
	}
	return nil
}

// vec reads three numbers. One too large for a float64 reads as an
// infinity, for the caller to refuse.
func (s *stlTokens) vec() (geom.Vec3, error) {
	var c [3]float64
	for i := range c {
		t := s.next()
		x, err := strconv.ParseFloat(string(t), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return geom.Vec3{}, fmt.Errorf("%.40q is not a number", t)
		}
		c[i] = x
	}
	return geom.Vec3{X: c[0], Y: c[1], Z: c[2]}, nil
}
