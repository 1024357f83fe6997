// Package loglimit holds back log lines of a kind for a while after one
// goes out, and counts those held back. gloved's listeners (the OSC port,
// multicast DNS, the OSCQuery server) log what the network sends them,
// and the network must not be able to fill the log (OyasumiVR#80: an
// mDNS stack that logged every socket error without end).
//
// Sources: the log floods named in docs/oscquery.md (OyasumiVR#79, #80);
// the standard library only.
package loglimit
