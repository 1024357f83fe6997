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
		return fmt.Errorf("baud = %d: %w; a current glove runs at 115200", s.Baud, err)
	}
	if what := serialport.NotADevice(s.Port); what != "" {
		return fmt.Errorf("port = %q: %s, not a serial device: give the glove's device, e.g. /dev/ttyUSB0", s.Port, what)
	}
	return nil
}
