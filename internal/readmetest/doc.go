// Package readmetest keeps parts of the README generated from the code
// they describe: a test renders the part and Section compares it with the
// README's text between two markers, or with -update writes it there.
// The code is the single source; the README cannot drift from it.
//
// Source: shared/reference/style.md (every promise the README makes is
// asserted by a test; the OSC contract is one source for README, tree
// and tests, issue 15).
package readmetest
