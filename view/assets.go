package view

import (
	"embed"
	"io/fs"
)

// The page: index.html and style.css are written by hand; app.js is built
// from web/src and three.js by web/build.sh and committed, so no Node is
// needed to run gloved.
//
//go:embed assets/index.html assets/style.css assets/app.js
var embedded embed.FS

// Assets is the page's files, served at the server's root.
var Assets fs.FS = mustSub(embedded, "assets")

func mustSub(f fs.FS, dir string) fs.FS {
	s, err := fs.Sub(f, dir)
	if err != nil {
		panic(err) // the directory is embedded at build time
	}
	return s
}
