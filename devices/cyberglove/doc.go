// Package cyberglove drives CyberGlove interface units over a serial line
// (serialport.Open), and registers them as the drivers device =
// "cyberglove" (I/II) and "cyberglove3" (III). One driver, Glove, owns the
// line for both generations: the open handshake's common part (^C and
// drain, ?S ?G ?R), reading, timeouts and restarting a stopped stream,
// reconnection with backoff when the port goes away, the tap a recording
// takes, and the fault counters. What differs is the model's: a
// CyberGlove I/II (ModelII) is given its sample period and status byte
// and streams or is polled for 8-bit records, split by Parser; a
// CyberGlove III (ModelIII) is switched to its 16-bit USB stream (1eu,
// 1S), split by Parser3, whose 12-bit values reach the rest of gloved at
// full resolution (devices.Sample.Counts reads them in the 8-bit counts
// calibrations use). The parsers share their byte window and error tails,
// and are what a replay parses recorded bytes with. The sensors, their
// map onto the hand and the shipped calibrations are package layout's.
// Open(Opts) follows periph's driver shape: options with defaults,
// abilities asserted at compile time, the owner of a port closes it.
//
// Source: the CyberGlove serial protocol as the public drivers implement
// it, no manual being public: Virtual Technologies' own glove library (as
// VR Juggler's Gadgeteer vendors it), asr-ros's asr_cyberglove_lib, Shadow
// Robot's sr_teleop_devices/cyberglove, FreeVR and VESS (commands, binary
// record framing, error tails, queries; the CyberGlove III's 16-bit
// record). Where they leave a point unconfirmed or are silent (the III's
// reply to 1eu, its error form, its 18-sensor record), the choice made
// here is documented beside the code.
package cyberglove
