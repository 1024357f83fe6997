// Package zeroconftest runs python-zeroconf, the independent peer of
// gloved's OSCQuery tests. It browses for or advertises DNS-SD services
// with python-zeroconf (Debian's python3-zeroconf, the zeroconf of PyPI)
// and reads an OSCQuery server's HOST_INFO and tree over HTTP, checked with
// python3-jsonschema against oscquery.schema.json, the proposal's JSON
// shape. Tests that use it run in a private network namespace (package
// netns) and skip, saying what to install, where the peer cannot run.
//
// Sources: the OSCQuery proposal (github.com/Vidvox/OSCQueryProposal
// README) for the schema; RFC 6763 as python-zeroconf implements it.
package zeroconftest
