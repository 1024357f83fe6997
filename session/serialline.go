package session

import (
	"fmt"

	"github.com/gloved/gloved/devices/serialport"
)

// checkSerialLine checks a serial glove's line before it is opened: a
// baud rate the line cannot be set to, or a port that is there and is no
// device (a regular file, a directory), is a mistake in the config that
// no retry mends, not a glove unplugged. A port that is not there yet is
// one: the glove is plugged in later.
func (s *Spec) checkSerialLine() error {
	if err := serialport.CheckRate(s.Baud); err != nil {
		return &KeyError{Key: "baud", Value: s.Baud, Err: fmt.Errorf("%w; a current glove runs at 115200", err)}
	}
	if what := serialport.NotADevice(s.Port); what != "" {
		return keyError("port", s.Port, "%s, not a serial device: give the glove's device, e.g. /dev/ttyUSB0", what)
	}
	return nil
}
