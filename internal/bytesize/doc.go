// Package bytesize words a count of bytes for an error message: "120
// bytes", "16.3 kB", "25.8 GB".
//
// The loaders of outside files (package env's meshes, package gltfdoc's
// glTF documents) say with it how much a file declares and how much it
// holds.
//
// Source: the prefixes of the International System of Units, decimal
// (BIPM, "The International System of Units (SI)", 9th edition, 2019,
// section 3, table 7; https://www.bipm.org/en/publications/si-brochure).
package bytesize
