// Package access decides who may use gloved's HTTP servers, the live page
// (package view) and the OSCQuery tree (package oscquery), by the rules of
// the OSC control port. A request from loopback is always served, one from
// a host that osc.allow lists is served, any other is refused. A request
// that arrived on a loopback address must name the server by an address
// or as localhost: a web page from elsewhere that rebinds its DNS name to
// 127.0.0.1 (DNS rebinding) reaches the port, but names itself in Host
// and is refused. Listen opens their ports, a port in use being
// ErrInUse.
//
// Sources: RFC 9110 section 7.2 (Host); gloved's security rules
// (docs/security.md) and the OSC policy (package osc) whose allow list
// this reuses; the standard library's net/http only.
package access
