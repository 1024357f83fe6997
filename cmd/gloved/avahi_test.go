package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/internal/netns"
)

// avahiBus is a D-Bus system bus of the test's own, for avahi-daemon and
// avahi-browse to talk over.
const avahiBus = `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=%s</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_type="method_call"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
`

// avahiConf runs avahi-daemon on loopback alone.
const avahiConf = `[server]
use-ipv4=yes
use-ipv6=no
allow-interfaces=lo
enable-dbus=yes
[publish]
publish-workstation=no
`

// startAvahi starts a D-Bus system bus and avahi-daemon on it, or skips
// the test saying what is missing (netns.Skipf: fails it where
// GLOVED_REQUIRE_PEERS=1); it returns the bus's address.
func startAvahi(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"avahi-daemon", "avahi-browse", "dbus-daemon"} {
		if _, err := exec.LookPath(tool); err != nil {
			netns.Skipf(t, "no %s: install avahi-daemon, avahi-utils and dbus (.ci/run does) to test with avahi", tool)
		}
	}
	dir := t.TempDir()
	bus := filepath.Join(dir, "bus")
	os.WriteFile(filepath.Join(dir, "bus.conf"), []byte(fmt.Sprintf(avahiBus, bus)), 0o644)
	os.WriteFile(filepath.Join(dir, "avahi-daemon.conf"), []byte(avahiConf), 0o644)
	addr := "unix:path=" + bus
	for _, args := range [][]string{
		{"dbus-daemon", "--nofork", "--config-file=" + filepath.Join(dir, "bus.conf")},
		{"avahi-daemon", "--no-drop-root", "--no-chroot", "--no-rlimits", "-f", filepath.Join(dir, "avahi-daemon.conf")},
	} {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env = append(os.Environ(), "DBUS_SYSTEM_BUS_ADDRESS="+addr)
		out := new(syncBuffer)
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		t.Cleanup(func() { cmd.Process.Signal(os.Interrupt); <-done })
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			ready := args[0] == "dbus-daemon" && fileExists(bus) || strings.Contains(out.String(), "Server startup complete")
			if ready {
				break
			}
			select {
			case <-done:
				netns.Skipf(t, "%s did not start (another avahi-daemon on this machine holds its pid file?):\n%s", args[0], out.String())
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s did not start:\n%s", args[0], out.String())
			}
		}
	}
	return addr
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// TestAvahiFindsGloved: with avahi-daemon running (it shares port 5353),
// `avahi-browse -rt` finds and resolves gloved's _oscjson._tcp and
// _osc._udp instances at the addresses and ports gloved serves, as the
// README tells a user to check by hand.
func TestAvahiFindsGloved(t *testing.T) {
	t.Parallel()
	if !inNamespace(t) {
		return
	}
	bus := startAvahi(t)
	oscListen := freeUDP(t)
	p := startGloved(t, "gloved run", "run", "-c", twoHandConfig(t, oscListen, "[oscquery]\nname = \"gloved-lab\"\n"), "--status=false")
	url := fmt.Sprint(p.logLine(t, "gloved running")["oscquery"])
	p.logLine(t, "oscquery: advertised over mDNS")
	_, httpPort, _ := net.SplitHostPort(strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/"))
	_, oscPort, _ := net.SplitHostPort(oscListen)
	for _, tc := range []struct{ typ, want string }{
		{"_oscjson._tcp", `=;lo;IPv4;gloved-lab;_oscjson._tcp;local;gloved-lab-oscjson.local;127.0.0.1;` + httpPort + `;"txtvers=1"`},
		{"_osc._udp", `=;lo;IPv4;gloved-lab;_osc._udp;local;gloved-lab-osc.local;127.0.0.1;` + oscPort + `;"txtvers=1"`},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		cmd := exec.CommandContext(ctx, "avahi-browse", "-rtp", tc.typ)
		cmd.Env = append(os.Environ(), "DBUS_SYSTEM_BUS_ADDRESS="+bus)
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil || !strings.Contains(string(out), tc.want) {
			t.Errorf("avahi-browse -rtp %s: %v\n%s\nwant the line %s", tc.typ, err, out, tc.want)
		}
	}
}
