package serialport

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/gloved/gloved/internal/userfile"
)

// Rates are the baud rates Open can set a line to, ascending: the
// standard ones Linux names (termios B50 to B4000000), as tarm/serial's
// table has them (serial_linux.go); it refuses any other rate with
// "Unrecognized baud rate". rate_test.go opens a line at each, and
// beside each, to hold this list to that table.
var Rates = []int{
	50, 75, 110, 134, 150, 200, 300, 600, 1200, 1800, 2400, 4800, 9600, 19200, 38400, 57600,
	115200, 230400, 460800, 500000, 576000, 921600, 1000000, 1152000, 1500000, 2000000,
	2500000, 3000000, 3500000, 4000000,
}

// ErrRate is a baud rate that is not one of Rates.
var ErrRate = errors.New("not a rate a serial line can be set to")

// CheckRate returns an error wrapping ErrRate, naming Rates, unless baud
// is one of them; the caller names baud.
func CheckRate(baud int) error {
	if _, ok := slices.BinarySearch(Rates, baud); ok {
		return nil
	}
	names := make([]string, len(Rates))
	for i, r := range Rates {
		names[i] = strconv.Itoa(r)
	}
	return fmt.Errorf("%w: want one of %s", ErrRate, strings.Join(names, ", "))
}

// NotADevice says what is at path when it is there and cannot be a
// serial line because it is not a character device ("a regular file",
// "a directory", ...): a mistake in the config. It returns "" for a path
// that is not there (a glove plugged in later), for a character device,
// and when path cannot be looked at (Open says why).
func NotADevice(path string) string {
	st, err := os.Stat(path)
	if err != nil {
		return ""
	}
	switch m := st.Mode(); {
	case m&fs.ModeCharDevice != 0:
		return ""
	case m.IsRegular():
		return "a regular file"
	default:
		return userfile.Describe(m)
	}
}
