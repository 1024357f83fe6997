// Package oscquery is gloved's OSCQuery service: its OSC address space as
// the proposal's JSON tree, served over HTTP, and advertised and
// discovered over multicast DNS.
//
// The tree (Space.Tree) is built from contracts described as data
// (osc.Methods, and any other []osc.Method): every address gloved sends
// (ACCESS 1) and accepts (ACCESS 2), for every configured hand, with its
// type tags, ranges, units and description. The Server answers GET of any
// node, one attribute of it (?TYPE, ?RANGE, ...), and ?HOST_INFO, with
// the proposal's status codes; VALUE is not served (gloved's addresses
// are streams, not values) and EXTENSIONS says so.
//
// Sources: the OSCQuery proposal, github.com/Vidvox/OSCQueryProposal
// (README: attributes, HOST_INFO, status codes; units.md), the OSC
// contract of package osc, DNS-SD (RFC 6763) as package mdns implements
// it; the pinned libraries of shared/reference/dependencies.md.
package oscquery
