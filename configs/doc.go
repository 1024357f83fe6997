// Package configs holds gloved's shipped configuration files and embeds
// them, so the binary carries its defaults. They are the default glove
// calibrations (calibration-22.toml, calibration-18.toml for a CyberGlove,
// calibration-opengloves.toml for an OpenGloves glove) and the daemon's
// example configurations (demo.toml, emulated.toml, cyberglove.toml,
// replay.toml, handshake.toml). Decode is how
// every gloved TOML file is read: strictly, errors naming line and key.
//
// Source: the sensor order and calibration practice of the public
// CyberGlove drivers (package cyberglove names them).
package configs
