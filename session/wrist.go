package session

import "fmt"

// The OSC wrist message (/gloved/<hand>/wrist) carries a pose as tx ty tz
// qx qy qz qw, and a config's wrist_pose takes that order too; PoseFrom,
// recordings and the command line's --wrist read qw qx qy qz tx ty tz, as
// a config's old wrist key did.

// FromWristPose returns a pose written tx ty tz qx qy qz qw as the seven
// numbers PoseFrom reads, checked as PoseFrom checks them.
func FromWristPose(v []float64) ([]float64, error) {
	if len(v) != 7 {
		return nil, fmt.Errorf("want 7 numbers (tx ty tz qx qy qz qw, as the OSC wrist message), got %d", len(v))
	}
	p := []float64{v[6], v[3], v[4], v[5], v[0], v[1], v[2]}
	if _, err := PoseFrom(p); err != nil {
		return nil, err
	}
	return p, nil
}

// WristPose returns the seven numbers PoseFrom reads as a config's
// wrist_pose writes them: tx ty tz qx qy qz qw.
func WristPose(v []float64) []float64 {
	return []float64{v[4], v[5], v[6], v[1], v[2], v[3], v[0]}
}
