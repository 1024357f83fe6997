// Package devices will read data gloves: a small sample interface, the
// CyberGlove serial driver, a recording format and a replay device.
//
// Source: shared/reference/cyberglove-protocol.md (commands, binary record
// framing, error tails, CyberGlove III stream). Nothing is implemented here
// yet: the glove side is issue #3.
package devices
