// Package access decides who may use gloved's HTTP servers and what one
// client may cost them. They are the live page (package view), the
// OSCQuery tree (package oscquery) and the metrics (package daemon); who
// may use them follows the rules of the OSC control port.
//
// Who (Rules, Gate): a request from loopback or a host that osc.allow
// lists is served, any other is refused. The request must name the
// server in Host by one of its addresses, as localhost where loopback
// reaches it, or by the machine's names: a web page whose DNS name an
// attacker rebound to 127.0.0.1 (DNS rebinding) reaches the port but
// names itself, and is refused. A WebSocket upgrade or a request that
// changes something, sent by a page of another origin (Origin), is
// refused: another site may not open the page's stream.
//
// How much (Serve): a server holds a bounded number of connections,
// closing the one that waited longest for a request when another comes
// (so connections left open by the thousand cost it neither its file
// descriptors nor a new client's answer), with timeouts for a request's
// head, a request, an answer and a kept connection, a bound on the head's
// size, and net/http's log lines at most one of a kind a second. Listen
// opens their ports, a port in use being ErrInUse.
//
// Sources: RFC 9110 section 7.2 (Host); RFC 6454 (Origin); RFC 6455
// section 10.2 (a WebSocket server checks Origin); RFC 6761 section 6.3
// (localhost); gloved's security rules (docs/security.md) and the OSC
// policy (package osc) whose allow list this reuses; the standard
// library's net/http only.
package access
