// Package daemontest receives what a daemon sends, for tests: a real UDP
// socket on loopback that keeps every bundle (or, for the output
// profiles, every packet, bare messages too), and a hand's statuses and
// frames among them.
//
// Sources: the README's OSC contract (each frame one bundle;
// <prefix>/<hand>/frame and <prefix>/<hand>/status, prefix /gloved);
// shared/reference/dependencies.md (go-osc decodes the bundles; the
// receiver owns its socket and its loop).
package daemontest
