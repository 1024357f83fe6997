// Package layout is the CyberGlove's sensors: the 22 slots in the glove's
// order and their names, the 18-sensor glove's map onto them (it has no
// DIP sensors), and the two devices.Layouts (18 and 22 sensors, at the
// I/II's 8 bits and the III's 12) with their map onto the hand's joints
// and the shipped default calibrations (configs/calibration-18.toml and
// -22.toml). The driver, the simulation, the emulator and the guided
// calibration's poses are all written in these slots.
//
// Sources: the CyberGlove serial protocol as public drivers show it (the
// sensor order; the 18-sensor glove without DIP sensors, which drivers
// give 2/3 of the PIP flexion) — Virtual Technologies' glove library as
// vendored by VR Juggler/Gadgeteer (gadget/Devices/VirtualTechnologies/
// CyberGlove), asr_cyberglove_lib (github.com/asr-ros) and Shadow Robot's
// sr_teleop_devices (cyberglove); the abduction sensors' coupling (the
// middle finger anchored) as Virtual Technologies' library distributes it.
package layout
