// Package calibrator runs the guided per-user calibration of a glove. It
// asks the user for each pose of a per-user calibration
// (handmodel.CalPoses: flat hand, fist, fingers spread, thumb across the
// palm, thumb out, wrist down, wrist toward the thumb), records a few
// seconds of the glove in each, asks again when the hand was not held still
// or the glove stopped sending (only the channels that move a joint must
// keep still: a button may be pressed), fits each sensor's offset and
// gain (handmodel.FitCalibration: a CyberGlove's sensors where the poses
// pin their slots, any other glove's channels where the poses pin the one
// joint each moves, by its layout), shows the fitted hand in every pose beside
// the pose's target and each sensor's residuals, asks for confirmation, and
// writes the calibration file with comments saying where each number came
// from.
//
// The session talks to the user through a UI, a small interface: Terminal
// is the one for a terminal (Enter to go on); a live page can be another.
// It reads any devices.Device, so the tests drive it with an emulated
// glove in scripted poses.
//
// Sources: the calibration practice of the public CyberGlove drivers
// (package cyberglove names them: linear per sensor, angle = gain * (raw -
// offset); per-user calibration because glove fit changes between users;
// left gloves mirror abductions and wrist yaw, which the fit takes from the
// data, since the poses' targets are the hand model's anatomical angles for
// either side).
package calibrator
