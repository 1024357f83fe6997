package view

import (
	"embed"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

// The page: index.html and style.css are written by hand; app.js is built
// from web/src and three.js by web/build.sh and committed, so no Node is
// needed to run gloved. webxr-generic-hand is the WebXR generic hand
// (MIT; its LICENSE.md and README.md say whence), the hand the page draws.
//
//go:embed assets/index.html assets/style.css assets/app.js
//go:embed assets/webxr-generic-hand/left.glb assets/webxr-generic-hand/right.glb
//go:embed assets/webxr-generic-hand/LICENSE.md assets/webxr-generic-hand/README.md
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

// assetTypes are the content types of the page's files that Go's table
// (mime.TypeByExtension) may not know: the system's varies, and a glTF
// file sniffed is application/octet-stream.
var assetTypes = map[string]string{
	".glb": "model/gltf-binary",
	".md":  "text/markdown; charset=utf-8",
}

// serveAssets serves the page's files, each with its content type, and
// no directory's listing: a path ending in / is not found, but / itself
// (the page, assets/index.html).
func serveAssets() http.Handler {
	files := http.FileServerFS(Assets)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" && strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r)
			return
		}
		if t, ok := assetTypes[path.Ext(r.URL.Path)]; ok {
			w.Header().Set("Content-Type", t)
		}
		files.ServeHTTP(w, r)
	})
}
