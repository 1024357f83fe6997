// Package daemontest receives what a daemon sends, for tests. Its receiver
// is a real UDP socket on loopback that keeps every bundle (or, for the
// output profiles, every packet, bare messages too) and finds a hand's
// statuses and frames among them.
//
// Sources: the OSC contract (package osc, docs/osc.md: each frame one
// bundle; <prefix>/<hand>/frame and <prefix>/<hand>/status, prefix
// /gloved); github.com/hypebeast/go-osc decodes the bundles (the receiver
// owns its socket and its loop).
package daemontest
