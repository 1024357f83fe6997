// Package serialport is gloved's serial line and the machine's serial
// ports. Open is the one place a driver's port is opened
// (github.com/tarm/serial: 8N1, raw mode, no flow control, always a read
// timeout), returning the Conn a driver reads (serialtest fakes it, and
// an Opener hands a driver either). For each port it gives its kind, USB
// vendor and product ids, serial number and product name (read from
// sysfs), the udev rule line that names it /dev/cyberglove, whether this
// user may open it, and, when asked, what answers on it (Probe, with a
// driver's Identify, the line's settings put back afterwards). `gloved
// ports` prints it.
//
// tarm/serial stays, though its last release is a 2018 snapshot: the
// project's design names it, and the drivers need no more than it does,
// 8N1 raw mode at a baud rate with a read timeout. Its known limits are
// guarded here: without a read timeout Close does not unblock a Read, so
// Open refuses none; a timed-out read returns (0, io.EOF), which Conn
// documents as "no data yet"; and it has no exclusive open, so Open
// claims the line itself (lock.go): flock(2) on a descriptor of its own,
// the UUCP lock file in /run/lock that names the holder (FHS 3.0, section
// 5.9; the form minicom and lockdev write), and TIOCEXCL (tty_ioctl(4)),
// cleared on close.
//
// Sources: the CyberGlove serial protocol as package cyberglove cites it
// (the queries its probe sends, through the driver's own Identify); the
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
