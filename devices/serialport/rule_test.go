package serialport

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
)

// shippedRule is the rule line of systemd/99-cyberglove.rules.
func shippedRule(t *testing.T) string {
	f, err := os.Open("../../systemd/99-cyberglove.rules")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), `SUBSYSTEM=="tty"`) {
			return sc.Text()
		}
	}
	t.Fatal("the shipped rules file has no tty rule")
	return ""
}

// The rule printed for the adapter the shipped file names is the shipped
// file's line: one style, so a printed line can replace it.
func TestRuleIsTheShippedRulesStyle(t *testing.T) {
	p := Port{Kind: USB, Name: "ttyUSB0", VID: "0403", PID: "6001"}
	if got, want := Rule(p, Link), shippedRule(t); got != want {
		t.Errorf("got\n%s\nwant the shipped\n%s", got, want)
	}
}

func TestRuleMatchesWhatIdentifiesThePort(t *testing.T) {
	tests := []struct {
		name string
		p    Port
		want string
	}{
		{"adapter with a serial number", Port{Kind: USB, VID: "0403", PID: "6001", Serial: "A10KX3B4"},
			`SUBSYSTEM=="tty", ATTRS{idVendor}=="0403", ATTRS{idProduct}=="6001", ATTRS{serial}=="A10KX3B4", SYMLINK+="cyberglove", GROUP="dialout", MODE="0660", TAG+="systemd"`},
		{"serial number udev cannot quote", Port{Kind: USB, VID: "067b", PID: "2303", Serial: `a"b*`},
			`SUBSYSTEM=="tty", ATTRS{idVendor}=="067b", ATTRS{idProduct}=="2303", SYMLINK+="cyberglove", GROUP="dialout", MODE="0660", TAG+="systemd"`},
		{"on-board port", Port{Kind: OnBoard, Name: "ttyS0"},
			`SUBSYSTEM=="tty", KERNEL=="ttyS0", SYMLINK+="cyberglove", GROUP="dialout", MODE="0660", TAG+="systemd"`},
		{"pseudo-terminal", Port{Kind: PTY, Path: "/dev/pts/3"}, ""},
	}
	for _, tc := range tests {
		if got := Rule(tc.p, Link); got != tc.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}

func ExampleRule() {
	adapter := Port{Path: "/dev/ttyUSB0", Name: "ttyUSB0", Kind: USB, VID: "0403", PID: "6001", Serial: "A10KX3B4"}
	fmt.Println(Rule(adapter, "cyberglove"))
	// Output: SUBSYSTEM=="tty", ATTRS{idVendor}=="0403", ATTRS{idProduct}=="6001", ATTRS{serial}=="A10KX3B4", SYMLINK+="cyberglove", GROUP="dialout", MODE="0660", TAG+="systemd"
}
