// Package gloved is the root of the gloved module: a daemon that reads a
// data glove, poses an articulated hand, tests it against a static scene and
// broadcasts exact contacts over OSC. The packages below this one do the
// work; this file exists so the repository-wide tests have a home.
//
// Sources: the papers in shared/seeds/ and the protocol notes in
// shared/reference/, cited package by package.
package gloved
