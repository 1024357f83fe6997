// Package handmodel will pose the articulated hand: palm, five three-link
// fingers and an optional forearm, joint limits, the sensor-to-joint map of
// 18- and 22-sensor gloves, calibration, and forward kinematics into
// caller-owned link transforms.
//
// Sources: the branching articulated body of
// shared/seeds/cab-articulated-obb-update.txt (section 3 and the table 5
// hand, a CyberGlove) and the sensor order of
// shared/reference/cyberglove-protocol.md. Nothing is implemented here yet:
// the hand model is issue #3.
package handmodel
