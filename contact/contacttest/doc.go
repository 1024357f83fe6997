// Package contacttest helps test contact methods. Rig runs a body's links
// against a scene as the frame pipeline does (refit, traversal, exact
// answers), and the package registers a contact method of its own,
// "testbox" (an object as its root box), showing that a new method is
// one package that registers itself and one import line: tests that
// import this package can name it for an object.
//
// Source: the registration pattern of tailscale's tailscaled (its feature
// packages register themselves from init), and periph's conntest, a
// reusable fake beside the real drivers.
package contacttest
