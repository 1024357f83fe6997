package gloved_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestPackageContentsAreInTheRepository: every file packaging/nfpm.yaml
// takes from the repository is there, the conffile is packaged as one at
// /etc/gloved/gloved.toml, and the maintainer scripts it names exist and
// are executable. (CI builds and checks the package itself:
// packaging/check-deb.sh.)
func TestPackageContentsAreInTheRepository(t *testing.T) {
	spec, err := os.ReadFile("packaging/nfpm.yaml")
	if err != nil {
		t.Fatal(err)
	}
	entries := regexp.MustCompile(`(?m)^  - src: (\S+)\n    dst: (\S+)\n((?:    .*\n)*)`).FindAllStringSubmatch(string(spec), -1)
	dsts := map[string]string{}
	for _, e := range entries {
		src, dst, rest := e[1], e[2], e[3]
		dsts[dst] = rest
		if strings.Contains(src, "${STAGE}") {
			continue // built by build-deb.sh
		}
		if _, err := os.Stat(filepath.Join("packaging", src)); err != nil {
			t.Errorf("%s -> %s: %v", src, dst, err)
		}
	}
	for _, dst := range []string{"/usr/bin/gloved", "/usr/lib/systemd/system/gloved.service", "/usr/lib/udev/rules.d/99-cyberglove.rules",
		"/usr/lib/sysusers.d/gloved.conf", "/usr/lib/modules-load.d/gloved.conf", "/etc/gloved/gloved.toml"} {
		if _, ok := dsts[dst]; !ok {
			t.Errorf("the package has no %s", dst)
		}
	}
	if !strings.Contains(dsts["/etc/gloved/gloved.toml"], "type: config\n") {
		t.Errorf("/etc/gloved/gloved.toml is not packaged as a conffile")
	}
	for _, m := range regexp.MustCompile(`(?m)^  (?:postinstall|preremove|postremove): (\S+)$`).FindAllStringSubmatch(string(spec), -1) {
		if fi, err := os.Stat(filepath.Join("packaging", m[1])); err != nil || fi.Mode()&0o111 == 0 {
			t.Errorf("maintainer script %s: %v (want an executable file)", m[1], err)
		}
	}
	users, err := os.ReadFile("packaging/sysusers.conf")
	if err != nil || !regexp.MustCompile(`(?m)^u gloved `).Match(users) || !regexp.MustCompile(`(?m)^m gloved dialout$`).Match(users) {
		t.Errorf("sysusers.conf makes no gloved user in dialout: %v\n%s", err, users)
	}
}

// TestBuildDebRefusesWhatDpkgWouldNot: build-deb.sh checks its version
// and arguments before it builds anything, and says what is wrong in one
// line.
func TestBuildDebRefusesWhatDpkgWouldNot(t *testing.T) {
	out := t.TempDir()
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"v1.0"}, `version "v1.0" is not a Debian version: start with a digit`},
		{[]string{"1.0 beta"}, `version "1.0 beta" is not a Debian version`},
		{[]string{"1.0", out, "extra"}, "usage: packaging/build-deb.sh [VERSION [OUTDIR]]"},
	} {
		cmd := exec.Command("bash", append([]string{"packaging/build-deb.sh"}, tc.args...)...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		if err == nil || len(lines) != 1 || !strings.Contains(lines[0], tc.says) {
			t.Errorf("%q: got %v, stderr:\n%s\nwant one line saying %q", tc.args, err, stderr.String(), tc.says)
		}
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("a refused build wrote %d files", len(entries))
	}
}

// TestEveryDeviceGroupTheUnitAllowsHasItsModuleLoadedAtBoot: each
// DeviceAllow=char-GROUP of the unit is a group of /proc/devices, looked
// up when the service starts: the module that registers it is in
// modules-load.d's list and the install's modprobe, so that a glove's
// port bound after boot (a Bluetooth one: rfcomm was not loaded) is not
// denied until the service restarts.
func TestEveryDeviceGroupTheUnitAllowsHasItsModuleLoadedAtBoot(t *testing.T) {
	// ttyS, the 8250 driver's, is built into Debian's kernels.
	module := map[string]string{"ttyUSB": "usbserial", "ttyACM": "cdc_acm", "rfcomm": "rfcomm", "ttyS": ""}
	unit, err := os.ReadFile("systemd/gloved.service")
	if err != nil {
		t.Fatal(err)
	}
	loads, err := os.ReadFile("packaging/modules-load.conf")
	if err != nil {
		t.Fatal(err)
	}
	postinst, err := os.ReadFile("packaging/scripts/postinst")
	if err != nil {
		t.Fatal(err)
	}
	groups := regexp.MustCompile(`(?m)^DeviceAllow=char-(\S+) `).FindAllStringSubmatch(string(unit), -1)
	if len(groups) == 0 {
		t.Fatal("the unit allows no device group")
	}
	for _, g := range groups {
		m, ok := module[g[1]]
		if !ok {
			t.Errorf("DeviceAllow=char-%s: which module registers it? (add it here and to modules-load.conf)", g[1])
			continue
		}
		if m == "" {
			continue
		}
		if !regexp.MustCompile(`(?m)^`+m+`$`).Match(loads) || !regexp.MustCompile(`modprobe -q -a [^\n]*\b`+m+`\b`).Match(postinst) {
			t.Errorf("char-%s: module %s is not loaded at boot and at install", g[1], m)
		}
	}
}
