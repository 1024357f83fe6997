package gloved_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gloved/gloved/internal/netns"
)

// TestSystemdUnitVerifies runs systemd-analyze verify on the shipped unit
// (with ExecStart pointed at an executable that exists here), and checks
// the settings the daemon needs: the address families (without
// AF_NETLINK, mDNS found no interface and oscquery: targets no app, in
// silence but for one warning) and the glove ports' device groups.
func TestSystemdUnitVerifies(t *testing.T) {
	tool, err := exec.LookPath("systemd-analyze")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("systemd-analyze is missing: .ci/run installs Debian's systemd package")
		}
		netns.Skipf(t, "systemd-analyze not installed (apt-get install systemd); CI runs this test")
	}
	unit, err := os.ReadFile("systemd/gloved.service")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Type=notify", "WatchdogSec=", "Restart=on-failure", "SupplementaryGroups=dialout", "ProtectSystem=strict", "NoNewPrivileges=yes", "PrivateTmp=yes",
		// AF_NETLINK: net.Interfaces, which mDNS needs, reads them over netlink.
		"RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK",
		"User=gloved", "DevicePolicy=closed", "DeviceAllow=char-ttyUSB rw", "DeviceAllow=char-ttyACM rw", "DeviceAllow=char-ttyS rw",
		"DeviceAllow=char-rfcomm rw"} { // an OpenGloves glove over Bluetooth
		if !strings.Contains(string(unit), want) {
			t.Errorf("unit lacks %s", want)
		}
	}
	dir := t.TempDir()
	patched := strings.ReplaceAll(string(unit), "/usr/local/bin/gloved", "/bin/true")
	path := filepath.Join(dir, "gloved.service")
	if err := os.WriteFile(path, []byte(patched), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(tool, "verify", path).CombinedOutput()
	if err != nil || strings.Contains(string(out), "gloved.service:") {
		t.Fatalf("systemd-analyze verify: %v\n%s", err, out)
	}
}
