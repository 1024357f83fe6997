// Package recording stores glove sessions. It holds the file format (a
// JSON header with the glove's driver and settings, the calibration and
// the wrist, then framed records of raw serial bytes, port reopenings,
// samples and wrist poses, each with a CRC), the Recorder the live
// driver's tap writes to, and the Reader that stops at the first damaged
// record. Package replay plays a recording back through its glove's
// driver.
//
// Source: the CyberGlove serial protocol as package cyberglove cites it
// (the raw bytes are parsed on replay with the driver's own record
// framing).
package recording
