package serialport

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Kind is what sort of line a port is.
type Kind string

const (
	USB     Kind = "usb"     // a USB-serial adapter (ttyUSB) or a USB modem-class device (ttyACM)
	OnBoard Kind = "onboard" // a UART on the machine itself (ttyS, ttyAMA, ...)
	PTY     Kind = "pty"     // a pseudo-terminal, such as `gloved emulate` serves
	Other   Kind = "other"   // a tty with no serial line behind it (a virtual console, a placeholder UART)
)

// Port is one serial port.
type Port struct {
	Path string // as listed (/dev/NAME) or as given
	Name string // the kernel's name (ttyUSB0); empty for a pty
	Kind Kind
	// The USB device's ids and strings, as sysfs has them (ids in
	// lower-case hex, as udev matches them); empty unless Kind is USB.
	VID, PID, Serial, Manufacturer, Product string
	Driver                                  string // ftdi_sio, cdc_acm, ...
	Console                                 bool   // the kernel's console is on this port
	// Problem is what sysfs would not tell of the port (its USB ids, say);
	// the port is listed all the same, matched by its kernel name.
	Problem string
}

// USBID returns "vvvv:pppp", or "-" for a port with no USB device.
func (p Port) USBID() string {
	if p.VID == "" {
		return "-"
	}
	return p.VID + ":" + p.PID
}

// Description names what the port is: the USB device's manufacturer and
// product strings, or its kind.
func (p Port) Description() string {
	switch p.Kind {
	case USB:
		s := strings.TrimSpace(p.Manufacturer + " " + p.Product)
		if s == "" {
			s = "USB serial (" + p.Driver + ")"
		}
		if p.Problem != "" {
			s += " (" + p.Problem + ")"
		}
		return s
	case OnBoard:
		return "on-board serial port"
	case PTY:
		return "pseudo-terminal"
	}
	return "terminal, no serial line"
}

// ptyMajors are the majors of Unix98 pseudo-terminal slaves (136-143),
// which sysfs does not list.
const ptyMajorFirst, ptyMajorLast = 136, 143

// Describe says what is at path, a port the user named (a device node or
// a symlink to one, such as /dev/cyberglove or an emulator's --link).
func (s Sysfs) Describe(path string) (Port, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		err = &fs.PathError{Op: "stat", Path: path, Err: err}
		if errors.Is(err, fs.ErrNotExist) {
			return Port{}, fmt.Errorf("serialport: %s does not exist: is the adapter plugged in? (`gloved ports` lists the ports there are)", path)
		}
		return Port{}, fmt.Errorf("serialport: %w", err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFCHR {
		return Port{}, fmt.Errorf("serialport: %s is not a serial port (not a character device)", path)
	}
	major, minor := unix.Major(st.Rdev), unix.Minor(st.Rdev)
	if major >= ptyMajorFirst && major <= ptyMajorLast {
		return Port{Path: path, Kind: PTY}, nil // sysfs does not list pty slaves
	}
	target, err := filepath.EvalSymlinks(filepath.Join(s.Root, "dev/char", fmt.Sprintf("%d:%d", major, minor)))
	if err != nil || filepath.Base(filepath.Dir(target)) != "tty" {
		return Port{}, fmt.Errorf("serialport: %s is not a serial port (device %d:%d is not a tty)", path, major, minor)
	}
	p, ok, err := s.port(filepath.Base(target))
	if err != nil {
		return Port{}, err
	}
	if !ok { // a virtual console, /dev/tty, a placeholder UART
		p = Port{Name: filepath.Base(target), Kind: Other}
	}
	p.Path = path
	return p, nil
}

// exists reports whether a device node is there.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
