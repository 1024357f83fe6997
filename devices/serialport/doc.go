// Package serialport finds the machine's serial ports and says what is on
// them. For each port it gives its kind, USB vendor and product ids, serial
// number and product name (read from sysfs), the udev rule line that names
// it /dev/cyberglove, whether this user may open it, and, when asked,
// whether a CyberGlove answers on it (cyberglove.Identify, with the line's
// settings put back afterwards). `gloved ports` prints it.
//
// Sources: the CyberGlove serial protocol as package cyberglove cites it
// (the queries a probe sends, through the driver's own Identify); the
// kernel's sysfs ABI for ttys (Documentation/ABI: the
// /sys/class/tty/NAME/device link, its subsystem, a serial_core port's
// "type" attribute, 0 for a placeholder with no UART behind it; the USB
// device's idVendor, idProduct, serial, manufacturer and product
// attributes), read as go.bug.st/serial's enumerator reads them
// (enumerator/usb_linux.go, v1.8.0, BSD-3-Clause): a usb-serial port's USB
// device is two levels above the port, an ACM port's one level above its
// interface. The enumerator itself is not called: on Linux it lists ports
// with serial.GetPortsList, which opens every /dev/ttyS* and leaves it in
// raw mode at another baud rate, so listing ports would break a serial
// console or whatever else is on the line (bugst/go-serial issue 210, open
// as of v1.8.0). Here a placeholder ttyS is told by its type attribute,
// without opening anything; only --probe opens a port, and it restores the
// line's settings.
package serialport
