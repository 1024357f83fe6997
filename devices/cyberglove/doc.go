// Package cyberglove drives CyberGlove interface units over a serial line
// (serialport.Open). One driver, Glove, owns the line for both
// generations: the open handshake's common part (^C and drain, ?S ?G ?R),
// reading, timeouts and restarting a stopped stream, reconnection with
// backoff when the port goes away, the tap a recording takes, and the
// fault counters. What differs is the model's: a CyberGlove I/II
// (ModelII) is given its sample period and status byte and streams or is
// polled for 8-bit records, split by Parser; a CyberGlove III (ModelIII)
// is switched to its 16-bit USB stream (1eu, 1S), split by Parser3, whose
// 12-bit values reach the rest of gloved at full resolution
// (devices.Sample.Counts reads them in the 8-bit counts calibrations use).
// The parsers share their byte window and error tails, and are what a
// replay parses recorded bytes with. Open(Opts) follows periph's driver
// shape: options with defaults, abilities asserted at compile time, the
// owner of a port closes it.
//
// Source: shared/reference/cyberglove-protocol.md (commands, binary record
// framing, error tails, queries; the CyberGlove III's 16-bit record),
// which compiles what public drivers show; where it marks a point
// unconfirmed or is silent (the III's reply to 1eu, its error form, its
// 18-sensor record), the choice made here is documented beside the code.
package cyberglove
