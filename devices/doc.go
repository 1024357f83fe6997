// Package devices reads data gloves. A Device fills a caller-owned Sample
// per call; optional abilities (glove facts, fault counters, raw-byte taps)
// are separate small interfaces. It holds the CyberGlove serial driver, the
// record framing it parses with, a glove emulator that answers the protocol
// on a pseudo-terminal, a deterministic simulated glove, and the recording
// format with its replay device.
//
// Source: shared/reference/cyberglove-protocol.md (commands, binary record
// framing, error tails, queries, the CyberGlove III stream), which compiles
// what public drivers show; where it marks a point unconfirmed, the choice
// made here is documented beside the code.
package devices
