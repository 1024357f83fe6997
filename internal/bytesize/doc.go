// Package bytesize words a count of bytes for a message, as the loaders
// of outside files (package env's meshes, package gltfdoc's glTF
// documents) say how much a file declares and how much it holds:
// "120 bytes", "16.3 kB", "25.8 GB". Units are decimal, with the prefixes
// of the International System of Units (BIPM, "The International System of
// Units (SI)", 9th edition, 2019, section 3, table 7;
// https://www.bipm.org/en/publications/si-brochure).
package bytesize
