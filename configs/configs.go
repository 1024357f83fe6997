package configs

import "embed"

// Files are the shipped configuration files, by base name.
//
//go:embed *.toml
var Files embed.FS
