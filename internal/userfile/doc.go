// Package userfile opens the files a user names as every gloved reader
// must: a regular file, of at most the size its kind may have. A config,
// a calibration, a scene, a skinned hand, a recording: anything else is
// refused with one line that says what the path is and what to give
// instead. It writes them as every gloved writer must, too: whole or
// not at all (Output), and a path in a message shown so that the message
// stays one line (Name).
//
// A named pipe opened for reading blocks until a writer comes, which no
// signal interrupts; /dev/zero never ends. So a file is opened with
// O_NONBLOCK and then examined through its descriptor (fstat), never by
// a stat of its path before the open, which a rename between the two
// would fool.
//
// Sources: POSIX open(2) on O_NONBLOCK for FIFOs ("an open() for
// reading-only shall return without delay") and fstat(2), The Open Group
// Base Specifications Issue 7; the bounded loaders of package env and
// package gltfdoc, which this generalises.
package userfile
