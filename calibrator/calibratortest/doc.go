// Package calibratortest serves calibration tests. It holds the calibration
// of a glove that differs clearly from the shipped default (Known for a
// CyberGlove, KnownFor any other layout), written
// as a file an emulated glove plays (TOML), and the check of a fitted
// calibration against it within the error a least-squares fit can make from
// quantised, noisy readings (Check, ReadingError).
//
// Source: the CyberGlove serial protocol as package cyberglove cites it
// (8-bit readings 1..254; left gloves mirror abductions and wrist yaw).
package calibratortest
