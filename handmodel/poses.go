package handmodel

import (
	"fmt"
	"math"
)

// PoseNames lists the named poses of NamedPose.
var PoseNames = []string{"flat", "fist", "spread"}

// NamedPose returns the joint angles of a named pose: "flat" (every angle
// 0), "fist" (fingers curled, thumb across) or "spread" (fingers and thumb
// abducted), before clamping to a hand's limits.
func NamedPose(name string) (Angles, error) {
	var q Angles
	switch name {
	case "flat":
	case "fist":
		for f := range 4 {
			j := IndexAbduction + Joint(4*f)
			q[j+1], q[j+2], q[j+3] = math.Pi/2, math.Pi/2, math.Pi/3
		}
		q[ThumbRoll], q[ThumbMCP], q[ThumbIP] = 0.9, 0.8, 0.9
	case "spread":
		q[IndexAbduction], q[RingAbduction], q[LittleAbduction] = 0.3, -0.25, -0.45
		q[ThumbAbduction] = 0.8
	default:
		return q, fmt.Errorf("handmodel: pose %q: want flat, fist or spread", name)
	}
	return q, nil
}
