// Package readmetest keeps the parts of the documentation that describe
// the code generated from it, so that they cannot drift. A test renders a
// part (a table of the OSC contract, an example of what a server answers)
// and Section compares it with the text between two marker lines on the
// one page that holds them, README.md or a page of docs/, or with
// go test -update writes it there. The code is the single source.
//
// Source: the project's rule that every promise the documentation makes
// about an output is asserted by a test, and its issue 15 (the OSC
// contract is one description, from which the README's tables, the
// OSCQuery tree and the tests are made).
package readmetest
