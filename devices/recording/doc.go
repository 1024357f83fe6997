// Package recording stores glove sessions and plays them back. It holds the
// file format (a JSON header with the glove, calibration and wrist, then
// framed records of raw serial bytes, port reopenings, samples and wrist
// poses, each with a CRC), the Recorder the live driver's tap writes to,
// the Reader that stops at the first damaged record, and Replay, a
// devices.Device that yields what the live driver returned, in real time or
// as fast as read.
//
// Source: the CyberGlove serial protocol as package cyberglove cites it
// (the raw bytes are parsed on replay with the driver's own record
// framing).
package recording
