package session

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gloved/gloved/geom"
)

// A pose is seven numbers. Everything a user writes takes them position
// first, as the OSC wrist message (/gloved/<hand>/wrist) does: a config's
// wrist_pose and a scene file's pose, the command line's --wrist-pose and
// --place-b. Recordings, Spec.Wrist and PoseFrom keep them rotation first,
// as the old keys and flags wrote them (a config's wrist, a scene file's
// transform, --wrist, --pose-b), which are still read, with a warning
// (OldOrder). ReadPose and ParsePose read either order, and are the only
// readers.

// PoseOrder is the order of a pose's seven numbers.
type PoseOrder int

// The two orders.
const (
	PositionFirst PoseOrder = iota // tx ty tz qx qy qz qw: metres, then a unit quaternion
	RotationFirst                  // qw qx qy qz tx ty tz: the old order, and recordings'
)

func (o PoseOrder) String() string {
	if o == RotationFirst {
		return "qw qx qy qz tx ty tz"
	}
	return "tx ty tz qx qy qz qw, as the OSC wrist message"
}

// ReadPose checks a pose of seven numbers written in order o and returns
// them rotation first, as PoseFrom reads them. The position must lie
// within geom.MaxPosition of the origin along each axis, and the
// quaternion must be one that normalises (geom.PoseError).
func ReadPose(v []float64, o PoseOrder) ([]float64, error) {
	if len(v) != 7 {
		return nil, fmt.Errorf("want 7 numbers (%v), got %d", o, len(v))
	}
	p := []float64{v[0], v[1], v[2], v[3], v[4], v[5], v[6]}
	if o == PositionFirst {
		p = []float64{v[6], v[3], v[4], v[5], v[0], v[1], v[2]}
	}
	if _, err := PoseFrom(p); err != nil {
		return nil, err
	}
	return p, nil
}

// ParsePose reads a pose written as seven numbers in order o, as on a
// command line ("0 0.91 0.1 -0.7071 0 0 0.7071"), and returns what
// ReadPose does.
func ParsePose(s string, o PoseOrder) ([]float64, error) {
	fields := strings.Fields(s)
	if len(fields) != 7 {
		return nil, fmt.Errorf("want 7 numbers \"%v\", got %d", o, len(fields))
	}
	v := make([]float64, 7)
	for i, f := range fields {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, fmt.Errorf("number %d %q: not a number", i+1, f)
		}
		v[i] = x
	}
	return ReadPose(v, o)
}

// PoseFrom converts a pose written rotation first, seven numbers checked
// as ReadPose checks them.
func PoseFrom(v []float64) (geom.Transform, error) {
	if len(v) != 7 {
		return geom.Transform{}, fmt.Errorf("want 7 numbers (%v), got %d", RotationFirst, len(v))
	}
	if err := geom.PoseError(geom.PoseQuat([7]float64(v))); err != nil {
		return geom.Transform{}, err
	}
	return geom.FromPose([7]float64(v))
}

// PositionFirstValues returns a pose's seven numbers, written rotation
// first, position first: as a warning gives the new form to write.
func PositionFirstValues(v []float64) []float64 {
	return []float64{v[4], v[5], v[6], v[1], v[2], v[3], v[0]}
}

// PoseValues returns x as the 7 numbers PoseFrom reads.
func PoseValues(x geom.Transform) []float64 {
	q := x.Quat()
	return []float64{q.W, q.V[0], q.V[1], q.V[2], x.T.X, x.T.Y, x.T.Z}
}

// OldOrder is the warning for a pose given rotation first, as old (a key
// or flag and its value), which still works: to write new instead, the
// same pose position first.
func OldOrder(old, new string) string {
	return fmt.Sprintf("%s is the old order, %v: write %s (%v)", old, RotationFirst, new, PositionFirst)
}
