package cyberglove

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"github.com/tarm/serial"
)

// Port is what the glove driver needs of a serial line. A Read that times
// out returns (0, io.EOF) or (0, nil): no data yet. Any other error means
// the port is gone.
type Port interface {
	io.ReadWriteCloser
}

// Opener opens a serial port by name at a baud rate with a read timeout.
type Opener func(name string, baud int, readTimeout time.Duration) (Port, error)

// OpenSerial opens a real serial device (or a pseudo-terminal) with
// github.com/tarm/serial: 8N1, raw mode, no flow control, and always a read
// timeout, without which Close would not unblock a Read.
func OpenSerial(name string, baud int, readTimeout time.Duration) (Port, error) {
	if readTimeout <= 0 {
		return nil, fmt.Errorf("cyberglove: %s: a read timeout is required", name)
	}
	p, err := serial.OpenPort(&serial.Config{Name: name, Baud: baud, ReadTimeout: readTimeout})
	if err != nil {
		return nil, fmt.Errorf("cyberglove: open %s at %d baud: %w%s", name, baud, err, openHint(err))
	}
	return p, nil
}

// openHint says what to do about a port that does not open.
func openHint(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return ": is the glove's interface unit plugged in and switched on? (or set the right port)"
	case errors.Is(err, fs.ErrPermission):
		return ": add the user to the dialout group (README: Connecting a real glove)"
	}
	return ""
}
