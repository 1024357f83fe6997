// Package mdns is multicast DNS (RFC 6762) and DNS-based service
// discovery (RFC 6763) over IPv4, as gloved's OSCQuery service needs
// them. A Peer advertises service instances under one name and browses
// for instances of other types, on one socket, on the interfaces chosen.
//
// The responder probes for its names (three probes 250 ms apart), takes
// "name (2)", "name (3)" ... when another host holds one (waiting 5 s
// between probes once 15 conflicts came within 10 s, and giving up after
// "name (100)" for a minute, then twice as long each time, at most an
// hour, before it tries its own name again), settles simultaneous probes by RFC 6762's lexicographic
// tie-break, announces twice, answers queries with known-answer
// suppression, multicasting a record at most once a second per
// interface, at most 20 responses a second per interface and 2 unicast
// answers a second to one legacy resolver, defends its names against
// later conflicts, and withdraws everything with TTL 0 on Close. Each
// service is advertised only on the interfaces it is reached through, at
// exactly one address there.
//
// The browser asks at once and then at intervals doubling to an hour,
// listing the answers it knows; keeps only the records of the instances
// it looks for (at most 512, TTLs capped at 75 minutes) until their TTL
// runs out, asking again at 80 to 95 percent of it; honours goodbyes and
// the cache-flush bit; asks for the SRV, TXT and address records an
// answer lacks; takes an address only on the link it was heard on, the
// sender's own or a trusted one (loopback only from this machine); and
// reports each instance found, moved and lost.
//
// Why not a library: of the Go mDNS libraries that the module proxy
// serves (grandcat/zeroconf v1.0.0, libp2p/zeroconf/v2 v2.2.0,
// brutella/dnssd v1.2.14, betamos/zeroconf v0.1.0, hashicorp/mdns v1.0.7,
// pion/mdns/v2 v2.0.7), none binds port 5353 with SO_REUSEPORT, so each
// fails to start beside a stack that set only that option
// (TestPortIsShared shows the bind failing); none but brutella/dnssd
// resolves a name conflict, and its browser neither chooses interfaces,
// nor asks again, nor lapses a record before the next packet arrives, nor
// resolves an answer that lacks its SRV; libp2p's and grandcat's
// browsers never report an instance lost; betamos/zeroconf has no
// conflict resolution and advertises the addresses of each interface it
// finds; pion/mdns resolves host names only and hashicorp/mdns browses
// once. The VRChat quirks (one address per interface, the SRV in the
// additional section, another machine's loopback address) need control
// of every packet. So the DNS messages are github.com/miekg/dns's (v1.1.73,
// pinned; the DNS library CoreDNS is built on) and the sockets
// golang.org/x/net/ipv4's; the mDNS and DNS-SD logic is this package.
//
// Sources: RFC 6762 (Multicast DNS) and RFC 6763 (DNS-Based Service
// Discovery); the VRChat OSCQuery issues named in docs/oscquery.md;
// miekg/dns and golang.org/x/net/ipv4 at the versions go.mod pins.
package mdns
