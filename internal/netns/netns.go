package netns

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// inside is the environment variable that marks the re-run test: its
// value is the test's name.
const inside = "GLOVED_NETNS_TEST"

// RequirePeers is the environment variable that, set to 1 (.ci/run sets
// it), makes a test that cannot have its namespace or its independent
// peer (python-zeroconf, jsonschema, avahi) fail instead of skipping:
// CI must not pass with every such test skipped.
const RequirePeers = "GLOVED_REQUIRE_PEERS"

// Skipf skips the test for want of a namespace or a peer, saying why, or
// fails it when RequirePeers is 1.
func Skipf(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv(RequirePeers) == "1" {
		t.Fatalf(format+" ("+RequirePeers+"=1: required here)", args...)
		return
	}
	t.Skipf(format, args...)
}

// setup brings up loopback for multicast inside the new namespace, then
// runs the test binary.
const setup = `ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo && exec "$@"`

// Run runs the calling test in a private network namespace. In the
// parent it runs the test binary again there, reports the child's result
// as the test's and returns false: the caller returns at once. In the
// child it checks that loopback is the only interface and returns true:
// the caller goes on with the test. env is added to the child's
// environment.
//
//	if !netns.Run(t) {
//		return
//	}
func Run(t *testing.T, env ...string) bool {
	t.Helper()
	if os.Getenv(inside) == t.Name() {
		only(t)
		return true
	}
	if os.Getenv(inside) != "" {
		t.Skipf("inside the namespace of %s", os.Getenv(inside))
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		Skipf(t, "no network namespace: unshare(1) is not installed (util-linux)")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		Skipf(t, "no network namespace: ip(8) is not installed (iproute2)")
	}
	args := []string{"--net"}
	if os.Geteuid() != 0 {
		args = append(args, "--map-root-user")
	}
	if out, err := exec.Command(unshare, append(args, "true")...).CombinedOutput(); err != nil {
		Skipf(t, "no network namespace: unshare %s: %v %s", strings.Join(args, " "), err, bytes.TrimSpace(out))
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pattern := "^" + strings.ReplaceAll(regexp.QuoteMeta(t.Name()), "/", "$/^") + "$"
	timeout := 2 * time.Minute
	if d, ok := t.Deadline(); ok {
		timeout = time.Until(d) - 5*time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, unshare, append(args, "--", "sh", "-c", setup, "sh",
		self, "-test.run", pattern, "-test.v", "-test.count=1", fmt.Sprintf("-test.timeout=%s", timeout))...)
	cmd.Env = append(append(os.Environ(), inside+"="+t.Name()), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	text := out.String()
	switch {
	case err != nil:
		t.Fatalf("in the network namespace: %v\n%s", err, text)
	case strings.Contains(text, "--- SKIP: "+t.Name()):
		t.Skipf("in the network namespace:\n%s", text)
	case !strings.Contains(text, "--- PASS: "+t.Name()):
		t.Fatalf("in the network namespace the test did not run:\n%s", text)
	case testing.Verbose():
		t.Logf("in the network namespace:\n%s", text)
	}
	return false
}

// only fails the test unless loopback is the only network interface.
func only(t *testing.T) {
	t.Helper()
	ifs, err := net.Interfaces()
	if err != nil {
		t.Fatal(err)
	}
	if len(ifs) != 1 || ifs[0].Flags&net.FlagLoopback == 0 || ifs[0].Flags&net.FlagMulticast == 0 {
		t.Fatalf("not in a private namespace of loopback alone: %v", ifs)
	}
}

// Inside reports whether this process is a test re-run in a namespace.
func Inside() bool { return os.Getenv(inside) != "" }
