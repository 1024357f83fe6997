package handmodel

import "math"

// Joint indexes the hand's degrees of freedom.
type Joint int

// The joints, in the order of Angles.
const (
	WristPitch Joint = iota // flexion of the hand at the wrist
	WristYaw                // radial deviation
	PalmArch                // cupping of the ring and little metacarpals
	ThumbRoll               // rotation of the thumb across the palm (opposition)
	ThumbAbduction
	ThumbMCP
	ThumbIP
	IndexAbduction
	IndexMCP
	IndexPIP
	IndexDIP
	MiddleAbduction
	MiddleMCP
	MiddlePIP
	MiddleDIP
	RingAbduction
	RingMCP
	RingPIP
	RingDIP
	LittleAbduction
	LittleMCP
	LittlePIP
	LittleDIP
	NumJoints
)

// Angles are joint angles in radians, indexed by Joint.
type Angles [NumJoints]float64

var jointNames = [NumJoints]string{
	"wrist_pitch", "wrist_yaw", "palm_arch",
	"thumb_roll", "thumb_abduction", "thumb_mcp", "thumb_ip",
	"index_abduction", "index_mcp", "index_pip", "index_dip",
	"middle_abduction", "middle_mcp", "middle_pip", "middle_dip",
	"ring_abduction", "ring_mcp", "ring_pip", "ring_dip",
	"little_abduction", "little_mcp", "little_pip", "little_dip",
}

func (j Joint) String() string {
	if j >= 0 && j < NumJoints {
		return jointNames[j]
	}
	return "joint?"
}

// Limit is a joint's range in radians.
type Limit struct{ Min, Max float64 }

func deg(d float64) float64 { return d * math.Pi / 180 }

// DefaultLimits are ranges of motion of an adult hand (active range, in the
// round numbers of clinical tables), used to clamp calibrated angles.
var DefaultLimits = [NumJoints]Limit{
	WristPitch: {deg(-70), deg(80)}, WristYaw: {deg(-35), deg(25)}, PalmArch: {0, deg(30)},
	ThumbRoll: {deg(-15), deg(70)}, ThumbAbduction: {deg(-15), deg(60)}, ThumbMCP: {deg(-10), deg(60)}, ThumbIP: {deg(-15), deg(80)},
	IndexAbduction: {deg(-20), deg(25)}, IndexMCP: {deg(-30), deg(90)}, IndexPIP: {0, deg(110)}, IndexDIP: {deg(-5), deg(80)},
	MiddleAbduction: {deg(-20), deg(20)}, MiddleMCP: {deg(-30), deg(90)}, MiddlePIP: {0, deg(110)}, MiddleDIP: {deg(-5), deg(80)},
	RingAbduction: {deg(-25), deg(20)}, RingMCP: {deg(-30), deg(90)}, RingPIP: {0, deg(110)}, RingDIP: {deg(-5), deg(80)},
	LittleAbduction: {deg(-35), deg(20)}, LittleMCP: {deg(-30), deg(90)}, LittlePIP: {0, deg(110)}, LittleDIP: {deg(-5), deg(80)},
}

// Clamp limits every angle to its range; a NaN angle becomes the range's
// nearest bound to zero (never NaN out).
func (a *Angles) Clamp(lim *[NumJoints]Limit) {
	for j := range a {
		v := a[j]
		if math.IsNaN(v) {
			v = min(max(0, lim[j].Min), lim[j].Max)
		}
		a[j] = min(max(v, lim[j].Min), lim[j].Max)
	}
}
