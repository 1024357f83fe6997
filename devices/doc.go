// Package devices is what the rest of gloved knows of a data glove: the
// Device interface (Read fills a caller-owned Sample), optional abilities as
// one-method interfaces (GloveInfo, Clock, FaultCounter), the errors a
// device reports and which of them are transient, the sensor layout of
// the 18- and 22-sensor CyberGlove (slot order, the 18-sensor map), and
// the sample's resolution (8 bits for a CyberGlove I/II, 12 for a III,
// read in one unit by Sample.Counts).
//
// The devices themselves live in sub-packages, one per concept, in the
// manner of periph's conn and its drivers: cyberglove (the serial driver
// and the record framing of both generations), recording
// (the file format, the recorder and the replay device), sim (the
// deterministic simulated glove) and emulator (a unit that answers the
// protocol on a pseudo-terminal, with emulatortest for tests).
//
// Source: shared/reference/cyberglove-protocol.md (sensor order, status
// byte, error codes).
package devices
