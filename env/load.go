package env

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/gltfdoc"
	"github.com/gloved/gloved/internal/userfile"
)

// Up names the axis a file treats as up. gloved's world is Y-up, like OpenXR
// and glTF; a Z-up file (common for CAD exports and STL) is turned so that
// its +Z becomes +Y.
type Up string

const (
	UpY Up = "y"
	UpZ Up = "z"
)

// LoadOptions places a file in the world. They are applied in this order:
// up-axis conversion, uniform scale, then the rigid transform.
type LoadOptions struct {
	Scale     float64 // 0 means 1; else MinScale to MaxScale
	Up        Up      // "" means UpY
	Transform *geom.Transform
	// Admit, if set, is asked with the file's triangle count once they are
	// read, before the mesh is prepared (each object's hull, what a
	// caller builds next): an error ends the load, returned as it is. A
	// caller weighs there what the scene will cost (PeakBytes) against
	// what it may use.
	Admit func(tris int) error
}

// The scales a file may be placed at: a millionth (micrometres to
// metres) to a million. Beyond, the scale is a mistake, and what it makes
// of a file's coordinates nears what a float64 holds.
const (
	MinScale = 1e-6
	MaxScale = 1e6
)

// MaxCoordinate bounds a vertex's coordinates once placed, in metres: a
// thousand kilometres from the origin. A scene beyond it is a file in
// the wrong units or a broken one (a vertex at 1e39 is finite in a
// float64, but not in a float32, the page's JSON turned it into
// -Inf and showed no scene, and the tree's boxes and distances lose
// every millimetre); within it, a float64 keeps a micrometre.
const MaxCoordinate = 1e6

// ScaleInRange reports whether s is from MinScale to MaxScale.
func ScaleInRange(s float64) bool { return s >= MinScale && s <= MaxScale }

// Sentinel errors, wrapped with the file and element at fault.
var (
	ErrEmpty       = errors.New("no triangles")
	ErrNonFinite   = errors.New("coordinate is NaN or infinite")
	ErrFar         = fmt.Errorf("coordinate beyond ±%g m (env.MaxCoordinate) of the origin", MaxCoordinate)
	ErrIndexRange  = errors.New("vertex index out of range")
	ErrUnsupported = errors.New("unsupported file type")
)

// Load reads a mesh file, choosing the format by extension: .obj, .stl,
// .gltf or .glb. Errors name the file and, where there is one, the element.
// Every count and offset a file declares is checked against its size
// before anything is allocated from it; see maxFileBytes and the limits
// beside it for what loading may cost.
func Load(path string, opt LoadOptions) (*Mesh, error) {
	return LoadContext(context.Background(), path, opt)
}

// LoadContext is Load, given up, with ctx's error, soon after ctx ends (a
// file of millions of triangles takes seconds).
func LoadContext(ctx context.Context, path string, opt LoadOptions) (*Mesh, error) {
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".obj", ".stl", ".gltf", ".glb":
	default:
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("env: %w", err)
		}
		return nil, fmt.Errorf("env: %s: %w %q (want .obj, .stl, .gltf or .glb)", path, ErrUnsupported, ext)
	}
	b, err := userfile.ReadFile(path, meshFile)
	if err != nil { // it names the file
		return nil, fmt.Errorf("env: %w", err)
	}
	var m *Mesh
	switch ext {
	case ".obj":
		m, err = readOBJ(ctx, b, baseName(path))
	case ".stl":
		m, err = readSTL(ctx, b, baseName(path))
	default:
		if m, err = readGLTF(b, gltfdoc.DirFS(filepath.Dir(path))); err == nil {
			err = ctx.Err()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("env: %s: %w", path, err)
	}
	if len(m.Tris) == 0 {
		if len(m.Warnings) > 0 { // the reader left out every mesh, and says why
			return nil, fmt.Errorf("env: %s: %w: %s", path, ErrEmpty, m.Warnings[0])
		}
		return nil, fmt.Errorf("env: %s: %w", path, ErrEmpty)
	}
	if opt.Admit != nil {
		if err := opt.Admit(len(m.Tris)); err != nil {
			return nil, err
		}
	}
	for i, w := range m.Warnings { // the reader's own, of what it left out
		m.Warnings[i] = fmt.Sprintf("%s: %s", path, w)
	}
	if err := m.Place(opt); err != nil {
		return nil, fmt.Errorf("env: %s: %w", path, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("env: %s: %w", path, err)
	}
	m.dropEmptyObjects()
	if len(m.Objects) > maxObjects {
		return nil, fmt.Errorf("env: %s: %d objects: %w (the limit is %d)", path, len(m.Objects), ErrTooBig, maxObjects)
	}
	if w := m.cleanNames(); w != "" {
		m.Warnings = append(m.Warnings, fmt.Sprintf("%s: %s", path, w))
	}
	if w := m.UniqueNames(); w != "" {
		m.Warnings = append(m.Warnings, fmt.Sprintf("%s: %s", path, w))
	}
	m.countDegenerate()
	m.detectConvex()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("env: %s: %w", path, err)
	}
	return m, nil
}

// baseName is the file's name without directory or extension: the name of
// a file's only object, or of its first if the file names none.
func baseName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

// Place applies the load options to every vertex, as Load does.
func (m *Mesh) Place(opt LoadOptions) error {
	s := opt.Scale
	if s == 0 {
		s = 1
	}
	if !ScaleInRange(s) {
		return fmt.Errorf("scale %v: want %g to %g", opt.Scale, MinScale, MaxScale)
	}
	var up mgl64.Mat3
	switch opt.Up {
	case "", UpY:
		up = mgl64.Ident3()
	case UpZ:
		up = mgl64.Mat3{1, 0, 0, 0, 0, -1, 0, 1, 0} // (x,y,z) -> (x, z, -y)
	default:
		return fmt.Errorf("up axis %q: want \"y\" or \"z\"", opt.Up)
	}
	x := geom.Identity()
	if opt.Transform != nil {
		x = *opt.Transform
	}
	for i, v := range m.Verts {
		w := x.Apply(geom.MulVec(&up, v).Mul(s))
		if !w.Finite() {
			return fmt.Errorf("vertex %d %v: %w after scale and transform", i+1, v, ErrNonFinite)
		}
		if math.Abs(w.X) > MaxCoordinate || math.Abs(w.Y) > MaxCoordinate || math.Abs(w.Z) > MaxCoordinate {
			return fmt.Errorf("vertex %d %v: %w after scale and transform: check the file's units and its scale", i+1, v, ErrFar)
		}
		m.Verts[i] = w
	}
	return nil
}
