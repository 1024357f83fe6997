// Package osc is gloved's OSC contract: what it sends apps and what it
// takes from them. Every frame of every hand goes out as one bundle (split
// when over MaxPacket) stamped with the glove sample's time, numbered twice
// (the frame's sequence and the sample's own, so that apps see the samples
// the daemon dropped), its link quaternions kept continuous from frame to
// frame by the caller; and apps subscribe, unsubscribe and send wrist poses
// to the daemon's listen address. The daemon owns its UDP sockets; encoding
// on the hot path is this package's allocation-free Writer. What arrives
// is split into its messages here (a bundle is read by its element sizes
// to the datagram's end, and taken whole or not at all), each message
// decoded by hypebeast/go-osc behind a guard that counts and drops
// anything malformed (its Server stops on a bad packet, its Match panics
// on some patterns and its bundle reader stops at 4 KB and ignores element
// sizes, so none of them is used).
//
// The contract is also data: Methods describes every address gloved sends
// and accepts (type tags, argument names, units and ranges by the
// OSCQuery proposal's names, when it is sent, what it means), the one
// source of the docs' tables, of the OSCQuery tree and of the tests
// that check what goes on the wire (Method.CheckArgs: types and ranges);
// MethodsIn describes it in another coordinate convention, as a gloved
// profile with coords sends it (its unit, LengthUnit; its axes,
// InCoordinates).
//
// Output profiles send the same frames in other dialects (packages
// osc/openxr, osc/vrchat, osc/vmc) or in other coordinates (ConvertFrame,
// geom.Convention), each to its own Targets: fixed addresses and the
// OSCQuery services an mDNS browser finds (Found, Lost), read lock-free
// for every frame (Hub.SendTo). Their rotations stay continuous with
// Tracks; VRChat's bare messages are BeginMessages', its bools Bool's.
//
// The listen socket is a control surface, guarded by the hub's Policy:
// subscriptions are leases that lapse unless renewed, bounded per source,
// cancelled only by their subscriber or their destination, and by default
// send frames only back to the requester's own address, and to an address
// that is not loopback only once it has sent back the token it was sent
// (<prefix>/validate: RFC 9000's address validation); wrist poses are
// taken only from loopback or osc.allow, and only inside a workspace box;
// requests are answered (<prefix>/subscribed, /unsubscribed, /refused)
// within a rate limit, and never with more bytes than they held to an
// address that has not proven itself. No NaN or infinity is ever sent.
//
// Sources: the OSC 1.0 specification (messages, bundles, NTP timetags,
// 4-byte alignment) as implemented by hypebeast/go-osc, and the contract of
// issue #6, documented in docs/osc.md (units metres and radians, a
// right-handed Y-up, -Z-forward world, float32 on the wire); OSC 1.1's
// type tags T and F (Bool); the OSCQuery proposal
// (github.com/Vidvox/OSCQueryProposal: ACCESS, TYPE, RANGE, UNIT and its
// units.md) for the contract's description; RFC 9000 (QUIC), section 8.1,
// address validation with tokens, and RFC 2104 (HMAC) for the tokens.
package osc
