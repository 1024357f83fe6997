// Package gloved is the root of the gloved module, a daemon for VR and
// robotics labs. gloved reads a data glove (a CyberGlove, over serial), poses
// an articulated hand, tests it against a static scene every frame and
// broadcasts exact contacts over OSC. Start with README.md and the pages
// of docs/. The packages below this one do the work, in the order of a
// frame: devices (glove bytes to samples), handmodel (calibration and
// forward kinematics), cab (the hand's box hierarchy, refitted), env and
// narrow (the scene's OBBTree and exact contacts) and osc (one bundle per
// frame); session builds one hand, daemon runs them all. This package
// holds only the repository-wide tests.
//
// Sources: the papers gloved implements, each cited by title, authors and
// venue in the packages that follow it and listed in docs/papers.md.
package gloved
