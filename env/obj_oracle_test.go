package env

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gloved/gloved/geom"
)

// oracleOBJ is ReadOBJ as it was, on a bufio.Scanner and strings.Fields,
// kept for FuzzReadOBJ to check the two-pass reader against.
func oracleOBJ(r io.Reader, defaultName string) (*Mesh, error) {
	m := &Mesh{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxOBJLine)
	obj := int32(-1)
	var corners []int32
	line := 0
	for sc.Scan() {
		line++
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		switch fields[0] {
		case "v":
			v, err := oracleOBJVertex(fields[1:])
			if err != nil {
				return nil, fmt.Errorf("line %d: vertex %d: %w", line, len(m.Verts)+1, err)
			}
			m.Verts = append(m.Verts, v)
		case "o", "g":
			name := strings.TrimSpace(strings.Join(fields[1:], " "))
			if name == "" {
				name = fmt.Sprintf("%s.%d", defaultName, len(m.Objects))
			}
			obj = m.addObject(name)
		case "f":
			if len(fields) < 4 {
				return nil, fmt.Errorf("line %d: face has %d corners, need at least 3", line, len(fields)-1)
			}
			corners = corners[:0]
			for _, c := range fields[1:] {
				i, err := oracleOBJIndex(c, len(m.Verts))
				if err != nil {
					return nil, fmt.Errorf("line %d: face corner %q: %w", line, c, err)
				}
				corners = append(corners, i)
			}
			if obj < 0 {
				obj = m.addObject(defaultName)
			}
			for k := 1; k+1 < len(corners); k++ {
				m.Tris = append(m.Tris, [3]int32{corners[0], corners[k], corners[k+1]})
				m.Object = append(m.Object, obj)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	return m, nil
}
func oracleOBJVertex(f []string) (geom.Vec3, error) {
	if len(f) < 3 || len(f) > 4 {
		return geom.Vec3{}, fmt.Errorf("want 3 or 4 coordinates, got %d", len(f))
	}
	var c [4]float64
	c[3] = 1
	for i, s := range f {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return geom.Vec3{}, fmt.Errorf("coordinate %q is not a number", s)
		}
		if !geom.Finite(x) {
			return geom.Vec3{}, fmt.Errorf("coordinate %q: %w", s, ErrNonFinite)
		}
		c[i] = x
	}
	if c[3] == 0 {
		return geom.Vec3{}, fmt.Errorf("weight w is 0")
	}
	v := geom.Vec3{X: c[0] / c[3], Y: c[1] / c[3], Z: c[2] / c[3]}
	if !v.Finite() {
		return geom.Vec3{}, fmt.Errorf("%v divided by w: %w", f, ErrNonFinite)
	}
	return v, nil
}
func oracleOBJIndex(c string, n int) (int32, error) {
	s, _, _ := strings.Cut(c, "/")
	i, err := strconv.ParseInt(s, 10, 64)
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
