package serialport

import (
	"fmt"
	"strings"
)

// Link is the name the shipped udev rule gives the glove's port:
// /dev/cyberglove.
const Link = "cyberglove"

// Rule returns the udev rule line that names p /dev/link, readable by
// the dialout group, in the style of the shipped systemd/99-cyberglove.rules:
// a USB adapter matched by its vendor and product ids (and its serial
// number when it has one, so two adapters of one make can be told apart),
// an on-board port by its kernel name. A pseudo-terminal has nothing
// stable to match: "".
func Rule(p Port, link string) string {
	var match string
	switch {
	case p.Kind == USB && p.VID != "" && p.PID != "":
		match = fmt.Sprintf(`ATTRS{idVendor}=="%s", ATTRS{idProduct}=="%s", `, p.VID, p.PID)
		if safeValue(p.Serial) {
			match += fmt.Sprintf(`ATTRS{serial}=="%s", `, p.Serial)
		}
	case p.Name != "":
		match = fmt.Sprintf(`KERNEL=="%s", `, p.Name)
	default:
		return ""
	}
	return `SUBSYSTEM=="tty", ` + match + fmt.Sprintf(`SYMLINK+="%s", GROUP="dialout", MODE="0660", TAG+="systemd"`, link)
}

// safeValue reports whether s can stand in a udev match as it is: udev
// values have no escapes for quotes, and a glob character would match
// more than this device.
func safeValue(s string) bool {
	return s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
	})
}
