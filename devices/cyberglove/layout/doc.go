// Package layout is the CyberGlove's sensors. It holds the 22 slots in the
// glove's order and their names, the 18-sensor glove's map onto them (it
// has no DIP sensors), and the two devices.Layouts (18 and 22 sensors, at the
// I/II's 8 bits and the III's 12) with their map onto the hand's joints
// and the shipped default calibrations (configs/calibration-18.toml and
// calibration-22.toml). The driver, the simulation, the emulator and the
// guided calibration's poses are all written in these slots.
//
// Source: the CyberGlove serial protocol as package cyberglove cites it
// (the sensor order; the 18-sensor glove without DIP sensors, to which
// drivers give 2/3 of the PIP flexion), and Virtual Technologies' glove
// library as VR Juggler's Gadgeteer vendors it for the abduction
// sensors' coupling: the middle finger anchored, its neighbours placed by
// the angles between them.
package layout
