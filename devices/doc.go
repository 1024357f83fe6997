// Package devices is what the rest of gloved knows of a data glove. It
// holds the Device interface (Read fills a caller-owned Sample), optional
// abilities as one-method interfaces (GloveInfo, Clock, FaultCounter), the
// errors a device reports and which of them are transient, the Parser a
// byte stream is split into records by (shared by a driver and the replay
// of its recordings), and what a sample carries: the readings of the
// glove's sensors and the joint angles it measures itself, as its
// driver's Layout names them and maps them onto the hand's joints, and
// the readings' resolution (8 bits for a CyberGlove I/II, 12 for a III,
// read in one unit by Sample.Counts). Nothing here assumes a CyberGlove:
// its sensors are its driver's (cyberglove/layout).
//
// The devices themselves live in sub-packages, one per concept, in the
// manner of periph's conn and its drivers: driver (the registry every
// glove driver registers in) and all (the shipped drivers), cyberglove
// (the serial driver and the record framing of both generations),
// opengloves (an OpenGloves glove's alpha-encoded lines), sim
// (the deterministic simulated glove), replay (a recording played back
// through its glove's driver), serialport (the serial line, its ports and
// probing, with serialtest, a scripted fake line), recording (the file
// format and the recorder) and emulator (a unit that answers the
// CyberGlove protocol on a pseudo-terminal, with emulatortest for tests).
//
// Source: the CyberGlove serial protocol as package cyberglove cites it
// (status byte, error codes).
package devices
