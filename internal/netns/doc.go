// Package netns runs a test inside a private network namespace that holds
// only loopback, up and multicast-capable with a route for 224.0.0.0/4.
// Every test that advertises or browses over multicast DNS runs there and
// never on the machine's own interfaces (issue 15). The test binary runs
// itself again under unshare(1), one test at a time; where namespaces
// cannot be made (no unshare, no privilege), the test is skipped with the
// reason (Skipf), or fails where GLOVED_REQUIRE_PEERS=1 says it must run
// (.ci/run). Skipf is every test's way to skip for want of an outside
// peer CI installs: python-zeroconf and avahi, Chromium, the Khronos
// glTF-Validator, systemd-analyze, prlimit, unshare; so CI cannot pass
// with any of them skipped.
//
// Sources: unshare(1) and ip(8) as util-linux and iproute2 document them;
// RFC 6762 (multicast DNS, 224.0.0.251) for why multicast needs the
// route.
package netns
