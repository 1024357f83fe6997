// Package oscquery is gloved's OSCQuery service: its OSC address space as
// the proposal's JSON tree, served over HTTP, advertised over multicast
// DNS, and the discovery of the apps to send to.
//
// The tree (Space.Tree) is built from contracts described as data
// (osc.Methods, and any other []osc.Method): every address gloved sends
// (ACCESS 1) and accepts (ACCESS 2), for every configured hand, with its
// type tags, ranges, units and description. The Server answers GET of any
// node, one attribute of it (?TYPE, ?RANGE, ...), and ?HOST_INFO, with
// the proposal's status codes, to the sources package access allows;
// VALUE is not served (gloved's addresses are streams, not values) and
// EXTENSIONS says so. CheckJSON checks a tree as a client reads it
// against the proposal's structure.
//
// A Service advertises the server as _oscjson._tcp and gloved's OSC
// socket as _osc._udp (package mdns) on the interfaces the server is
// reached through, and finds the _osc._udp apps whose instance names
// match its globs ("VRChat-Client-*", osc.MatchInstance) for a Sink:
// those that appear, move and go, that gloved's OSC socket can reach, at
// an address on the link they were found on, their own or in the allow
// list (osc.allow): a host on the link cannot aim gloved's stream at a
// third host.
//
// Sources: the OSCQuery proposal, github.com/Vidvox/OSCQueryProposal
// (README: attributes, HOST_INFO, status codes; units.md), the OSC
// contract of package osc, DNS-SD (RFC 6763) as package mdns implements
// it, the VRChat issues docs/oscquery.md names; the libraries go.mod
// pins.
package oscquery
