package serialport

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Sysfs is where the ports are looked up: the sysfs and /dev roots, "/sys"
// and "/dev" on a running system (tests give a tree of their own).
type Sysfs struct {
	Root string // /sys
	Dev  string // /dev
}

// System is the running system's sysfs and /dev.
var System = Sysfs{Root: "/sys", Dev: "/dev"}

// List returns the serial ports that have a device behind them and a node
// in /dev, USB ones first, each group in natural order (ttyUSB2 before
// ttyUSB10). Placeholder ttyS ports (no UART) are left out; nothing is
// opened.
func (s Sysfs) List() ([]Port, error) {
	entries, err := os.ReadDir(filepath.Join(s.Root, "class/tty"))
	if err != nil {
		return nil, fmt.Errorf("serialport: listing ports: %w", err)
	}
	var ports []Port
	for _, e := range entries {
		p, ok, err := s.port(e.Name())
		if err != nil {
			return nil, err
		}
		if ok && exists(p.Path) {
			ports = append(ports, p)
		}
	}
	slices.SortFunc(ports, func(a, b Port) int {
		if c := cmp.Compare(kindOrder(a.Kind), kindOrder(b.Kind)); c != 0 {
			return c
		}
		return naturalCompare(a.Name, b.Name)
	})
	return ports, nil
}

func kindOrder(k Kind) int {
	if k == USB {
		return 0
	}
	return 1
}

// port describes the tty called name from sysfs; ok is false for a tty
// that is no serial port (a virtual console, a placeholder UART).
func (s Sysfs) port(name string) (p Port, ok bool, err error) {
	tty := filepath.Join(s.Root, "class/tty", name)
	dev, err := filepath.EvalSymlinks(filepath.Join(tty, "device"))
	if errors.Is(err, fs.ErrNotExist) {
		return Port{}, false, nil // virtual: tty0..63, console, ptmx
	}
	if err != nil {
		return Port{}, false, fmt.Errorf("serialport: %s: %w", name, err)
	}
	p = Port{Path: filepath.Join(s.Dev, name), Name: name, Kind: OnBoard, Driver: linkBase(filepath.Join(dev, "driver"))}
	p.Console = s.console(name)
	switch linkBase(filepath.Join(dev, "subsystem")) {
	case "usb-serial": // ttyUSB: .../1-2/1-2:1.0/ttyUSB0
		s.usb(filepath.Dir(filepath.Dir(dev)), &p)
		return p, true, nil
	case "usb": // ttyACM: .../1-3/1-3:1.0
		s.usb(filepath.Dir(dev), &p)
		return p, true, nil
	}
	// A serial_core port with no UART behind it (the 8250 driver's
	// ttyS1..31 on most PCs) has type 0, PORT_UNKNOWN.
	if t, err := readAttr(filepath.Join(tty, "type")); err == nil && t == "0" {
		return Port{}, false, nil
	}
	return p, true, nil
}

// usb fills in p's USB attributes from the USB device at dir. What it
// cannot read is said in p.Problem, and only that is left out: the port
// is listed all the same (one odd device must not hide the glove's), and
// without both ids it has none (a rule matches its kernel name), while a
// serial number or a name that cannot be read leaves the ids as they are.
func (s Sysfs) usb(dir string, p *Port) {
	p.Kind = USB
	var problems []string
	read := func(file string) string {
		v, err := readAttr(filepath.Join(dir, file))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			problems = append(problems, fmt.Sprintf("cannot read its USB %s: %v", file, err))
		}
		return v
	}
	p.VID, p.PID = read("idVendor"), read("idProduct")
	if p.VID == "" || p.PID == "" {
		if len(problems) == 0 {
			problems = append(problems, "no USB vendor and product ids at "+dir)
		}
		p.VID, p.PID = "", ""
	}
	p.Serial, p.Manufacturer, p.Product = read("serial"), read("manufacturer"), read("product")
	p.Problem = strings.Join(problems, "; ")
}

// console reports whether the kernel's console is on the tty called name.
func (s Sysfs) console(name string) bool {
	active, err := readAttr(filepath.Join(s.Root, "class/tty/console/active"))
	return err == nil && slices.Contains(strings.Fields(active), name)
}

// readAttr returns a sysfs attribute's first line.
func readAttr(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	return strings.TrimSpace(line), nil
}

// linkBase is the last element of a symlink's target ("" if none).
func linkBase(link string) string {
	t, err := filepath.EvalSymlinks(link)
	if err != nil {
		return ""
	}
	return filepath.Base(t)
}

// naturalCompare orders names by their text and then by their trailing
// number: ttyUSB2 before ttyUSB10.
func naturalCompare(a, b string) int {
	sa, na := splitNumber(a)
	sb, nb := splitNumber(b)
	if c := strings.Compare(sa, sb); c != 0 {
		return c
	}
	return cmp.Compare(na, nb)
}

func splitNumber(s string) (string, int) {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	n, _ := strconv.Atoi(s[i:])
	return s[:i], n
}
