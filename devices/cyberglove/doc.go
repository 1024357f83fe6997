// Package cyberglove drives a CyberGlove I/II interface unit over a serial
// line (github.com/tarm/serial): the open handshake (^C and drain, ?S ?G ?R,
// the sample period and status byte), streaming or polling, reconnection
// with backoff when the port goes away, and the fault counters. Parser
// splits the unit's byte stream into records by their framing; it is also
// what a replay parses recorded bytes with. Open(Opts) follows periph's
// driver shape: options with defaults, abilities asserted at compile time,
// the owner of a port closes it.
//
// Source: shared/reference/cyberglove-protocol.md (commands, binary record
// framing, error tails, queries), which compiles what public drivers show;
// where it marks a point unconfirmed, the choice made here is documented
// beside the code.
package cyberglove
