// Package configs holds gloved's shipped configuration files and embeds
// them, so the binary carries its defaults: the default glove calibrations
// (calibration-22.toml, calibration-18.toml) now, the daemon's example
// configurations when the daemon lands.
//
// Source: the sensor order and calibration practice of
// shared/reference/cyberglove-protocol.md.
package configs

import "embed"

// Files are the shipped configuration files, by base name.
//
//go:embed *.toml
var Files embed.FS
