package serialport

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fakeSys is a sysfs and /dev laid out as the kernel lays them out, in a
// temporary directory: real directories, files and symlinks.
type fakeSys struct {
	t *testing.T
	Sysfs
}

func newFakeSys(t *testing.T) *fakeSys {
	dir := t.TempDir()
	f := &fakeSys{t, Sysfs{Root: filepath.Join(dir, "sys"), Dev: filepath.Join(dir, "dev")}}
	f.mkdir("class/tty")
	f.mkdir("bus/usb-serial/drivers/ftdi_sio")
	f.mkdir("bus/usb/drivers/cdc_acm")
	f.mkdir("bus/serial-base/drivers/port")
	if err := os.MkdirAll(f.Dev, 0o755); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fakeSys) mkdir(rel string) string {
	p := filepath.Join(f.Root, rel)
	if err := os.MkdirAll(p, 0o755); err != nil {
		f.t.Fatal(err)
	}
	return p
}

func (f *fakeSys) write(rel, text string) {
	if err := os.WriteFile(filepath.Join(f.Root, rel), []byte(text), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fakeSys) link(rel, target string) {
	if err := os.Symlink(target, filepath.Join(f.Root, rel)); err != nil {
		f.t.Fatal(err)
	}
}

// tty registers class/tty/name for the tty directory at ttyDir (relative
// to the root), with its device link to devDir (relative, "" for none),
// and a /dev node unless noNode.
func (f *fakeSys) tty(name, ttyDir, devDir string, noNode bool) {
	f.mkdir(ttyDir)
	f.link("class/tty/"+name, filepath.Join(f.Root, ttyDir))
	if devDir != "" {
		f.link(ttyDir+"/device", filepath.Join(f.Root, devDir))
	}
	if !noNode {
		if err := os.WriteFile(filepath.Join(f.Dev, name), nil, 0o660); err != nil {
			f.t.Fatal(err)
		}
	}
}

// usbDevice writes a USB device's attributes at dir.
func (f *fakeSys) usbDevice(dir, vid, pid, serial, manufacturer, product string) {
	f.mkdir(dir)
	for name, v := range map[string]string{"idVendor": vid, "idProduct": pid, "serial": serial, "manufacturer": manufacturer, "product": product} {
		if v != "" {
			f.write(dir+"/"+name, v+"\n")
		}
	}
}

// ftdi adds an FTDI adapter's ttyUSB port as the ftdi_sio driver lays it
// out: .../usb1/1-N/1-N:1.0/ttyUSBk/tty/ttyUSBk, device -> .../1-N:1.0/ttyUSBk.
func (f *fakeSys) ftdi(name, bus, serial string) {
	usb := "devices/pci0000:00/usb1/" + bus
	f.usbDevice(usb, "0403", "6001", serial, "FTDI", "FT232R USB UART")
	port := usb + "/" + bus + ":1.0/" + name
	f.mkdir(port)
	f.link(port+"/subsystem", filepath.Join(f.Root, "bus/usb-serial"))
	f.link(port+"/driver", filepath.Join(f.Root, "bus/usb-serial/drivers/ftdi_sio"))
	f.tty(name, port+"/tty/"+name, port, false)
}

func TestListFindsTheSerialPortsAndNothingElse(t *testing.T) {
	f := newFakeSys(t)
	f.ftdi("ttyUSB10", "1-4", "A10KX3B4")
	f.ftdi("ttyUSB2", "1-2", "")
	// An ACM device: the tty's device is the USB interface, the USB
	// device one level above it.
	acm := "devices/pci0000:00/usb1/1-3"
	f.usbDevice(acm, "2341", "0043", "75735", "Arduino (www.arduino.cc)", "")
	f.mkdir(acm + "/1-3:1.0")
	f.link(acm+"/1-3:1.0/subsystem", filepath.Join(f.Root, "bus/usb"))
	f.link(acm+"/1-3:1.0/driver", filepath.Join(f.Root, "bus/usb/drivers/cdc_acm"))
	f.tty("ttyACM0", acm+"/1-3:1.0/tty/ttyACM0", acm+"/1-3:1.0", false)
	// On-board UARTs: ttyS0 is real (16550A, type 4) and the console;
	// ttyS1 is a placeholder (type 0); ttyS2 is real but has no /dev node.
	for i, typ := range []string{"4", "0", "4"} {
		name := "ttyS" + string(rune('0'+i))
		dev := "devices/pnp0/00:0" + string(rune('0'+i))
		f.mkdir(dev)
		f.link(dev+"/subsystem", filepath.Join(f.Root, "bus/serial-base"))
		f.link(dev+"/driver", filepath.Join(f.Root, "bus/serial-base/drivers/port"))
		f.tty(name, dev+"/tty/"+name, dev, i == 2)
		f.write(dev+"/tty/"+name+"/type", typ+"\n")
	}
	// Virtual terminals: no device link.
	f.tty("tty1", "devices/virtual/tty/tty1", "", false)
	f.tty("console", "devices/virtual/tty/console", "", false)
	f.write("devices/virtual/tty/console/active", "tty1 ttyS0\n")

	got, err := f.List()
	if err != nil {
		t.Fatal(err)
	}
	dev := func(n string) string { return filepath.Join(f.Dev, n) }
	want := []Port{
		{Path: dev("ttyACM0"), Name: "ttyACM0", Kind: USB, VID: "2341", PID: "0043", Serial: "75735", Manufacturer: "Arduino (www.arduino.cc)", Driver: "cdc_acm"},
		{Path: dev("ttyUSB2"), Name: "ttyUSB2", Kind: USB, VID: "0403", PID: "6001", Manufacturer: "FTDI", Product: "FT232R USB UART", Driver: "ftdi_sio"},
		{Path: dev("ttyUSB10"), Name: "ttyUSB10", Kind: USB, VID: "0403", PID: "6001", Serial: "A10KX3B4", Manufacturer: "FTDI", Product: "FT232R USB UART", Driver: "ftdi_sio"},
		{Path: dev("ttyS0"), Name: "ttyS0", Kind: OnBoard, Driver: "port", Console: true},
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
	for _, tc := range []struct {
		p        Port
		id, desc string
	}{{want[0], "2341:0043", "Arduino (www.arduino.cc)"}, {want[1], "0403:6001", "FTDI FT232R USB UART"}, {want[3], "-", "on-board serial port"}} {
		if tc.p.USBID() != tc.id || tc.p.Description() != tc.desc {
			t.Errorf("%s: got %q %q, want %q %q", tc.p.Name, tc.p.USBID(), tc.p.Description(), tc.id, tc.desc)
		}
	}
}

// TestListShowsAUSBPortWithoutIds: a USB port whose device has no vendor
// id in sysfs is listed all the same, saying so, with a udev rule that
// matches its kernel name; a sysfs without ttys is an error.
func TestListShowsAUSBPortWithoutIds(t *testing.T) {
	f := newFakeSys(t)
	f.ftdi("ttyUSB0", "1-2", "")
	f.ftdi("ttyUSB1", "1-3", "")
	os.Remove(filepath.Join(f.Root, "devices/pci0000:00/usb1/1-2/idVendor"))
	ports, err := f.List()
	if err != nil || len(ports) != 2 {
		t.Fatalf("got %+v, %v: want both ports", ports, err)
	}
	odd := ports[0]
	if odd.USBID() != "-" || !strings.Contains(odd.Description(), "no USB vendor and product ids") || !strings.Contains(Rule(odd, Link), `KERNEL=="ttyUSB0"`) {
		t.Errorf("the port without ids: %q %q %q", odd.USBID(), odd.Description(), Rule(odd, Link))
	}
	if ports[1].Problem != "" || ports[1].USBID() == "-" {
		t.Errorf("the other port: %+v", ports[1])
	}
	if _, err := (Sysfs{Root: t.TempDir(), Dev: "/dev"}).List(); err == nil {
		t.Fatal("a sysfs without class/tty was listed")
	}
}

// TestListKeepsWhatItCouldRead: a USB attribute sysfs will not give (here
// a directory where the file should be, which reads as EISDIR) is said
// in the port's Problem and only it is left out: an unreadable serial
// number or product name keeps the port's ids (and its udev rule by
// them), an unreadable vendor id leaves the port without ids (a rule by
// its kernel name), its names kept.
func TestListKeepsWhatItCouldRead(t *testing.T) {
	f := newFakeSys(t)
	f.ftdi("ttyUSB0", "1-2", "")
	f.ftdi("ttyUSB1", "1-3", "A10KX3B4")
	f.ftdi("ttyUSB2", "1-4", "")
	unreadable := func(dev, attr string) {
		path := filepath.Join(f.Root, "devices/pci0000:00/usb1", dev, attr)
		os.Remove(path)
		if err := os.Mkdir(path, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	unreadable("1-2", "serial")
	unreadable("1-3", "product")
	unreadable("1-4", "idVendor")
	ports, err := f.List()
	if err != nil || len(ports) != 3 {
		t.Fatalf("got %+v, %v: want the three ports", ports, err)
	}
	tests := []struct {
		p                     Port
		id, manufacturer      string
		product, serial, says string
		rule                  string
	}{
		{ports[0], "0403:6001", "FTDI", "FT232R USB UART", "", "cannot read its USB serial", `ATTRS{idVendor}=="0403", ATTRS{idProduct}=="6001", SYMLINK`},
		{ports[1], "0403:6001", "FTDI", "", "A10KX3B4", "cannot read its USB product", `ATTRS{serial}=="A10KX3B4"`},
		{ports[2], "-", "FTDI", "FT232R USB UART", "", "cannot read its USB idVendor", `KERNEL=="ttyUSB2"`},
	}
	for _, tc := range tests {
		p := tc.p
		if p.USBID() != tc.id || p.Manufacturer != tc.manufacturer || p.Product != tc.product || p.Serial != tc.serial ||
			!strings.Contains(p.Problem, tc.says) || !strings.Contains(p.Description(), tc.says) || !strings.Contains(Rule(p, Link), tc.rule) {
			t.Errorf("%s: got ids %s, %q %q serial %q, problem %q, rule %s; want %s, %q %q %q, %q, %s",
				p.Name, p.USBID(), p.Manufacturer, p.Product, p.Serial, p.Problem, Rule(p, Link), tc.id, tc.manufacturer, tc.product, tc.serial, tc.says, tc.rule)
		}
	}
}

// On the running system: every port listed has its node, and no
// placeholder UART is among them. Nothing is opened.
func TestListOnThisMachine(t *testing.T) {
	ports, err := System.List()
	if err != nil {
		t.Skipf("no sysfs here: %v", err)
	}
	for _, p := range ports {
		if !exists(p.Path) || p.Kind == Other || p.Kind == PTY {
			t.Errorf("listed %+v", p)
		}
		if typ, err := readAttr(filepath.Join(System.Root, "class/tty", p.Name, "type")); err == nil && typ == "0" {
			t.Errorf("listed a placeholder UART: %+v", p)
		}
	}
	t.Logf("%d ports: %+v", len(ports), ports)
}

func TestNaturalOrder(t *testing.T) {
	names := []string{"ttyUSB10", "ttyS1", "ttyUSB2", "ttyACM0", "ttyUSB1"}
	slices.SortFunc(names, naturalCompare)
	if want := []string{"ttyACM0", "ttyS1", "ttyUSB1", "ttyUSB2", "ttyUSB10"}; !slices.Equal(names, want) {
		t.Errorf("got %v, want %v", names, want)
	}
}
