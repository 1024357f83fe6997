// Package netns runs a test inside a private network namespace that holds
// only loopback, up and multicast-capable with a route for 224.0.0.0/4.
// Every test that advertises or browses over multicast DNS runs there and
// never on the machine's own interfaces (issue 15). The test binary runs
// itself again under unshare(1), one test at a time; where namespaces
// cannot be made (no unshare, no privilege), the test is skipped with the
// reason (Skipf, which the independent peers' tests use too), or fails
// where GLOVED_REQUIRE_PEERS=1 says it must run (.ci/run).
//
// Sources: unshare(1) and ip(8) as util-linux and iproute2 document them;
// RFC 6762 (multicast DNS, 224.0.0.251) for why multicast needs the
// route.
package netns
