package gltfdoc

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/gloved/gloved/internal/bytesize"
	"github.com/gloved/gloved/internal/userfile"
)

// ErrTooBig is wrapped by the error for a file, with the external buffers
// it names, of more than the bytes Read was allowed. It is package
// userfile's, which refuses a file over its kind's limit before it is read.
var ErrTooBig = userfile.ErrTooBig

// Modes of a primitive that carry a surface (specification 3.7.2.1); 0 to
// 3 are points and lines.
const (
	Triangles     = 4
	TriangleStrip = 5
	TriangleFan   = 6
)

// Read decodes a glTF 2.0 document, .gltf JSON or GLB, and loads its
// buffers: a GLB's BIN chunk, base64 data URIs, and files beside the
// document, read from fsys (nil forbids them). The file and the files it
// names may hold maxBytes in all. Nothing is allocated from a count or
// length the file declares before it is checked against the bytes
// present; a decoded table costs at most 40 bytes per element.
//
// Errors name the element at fault ("accessor 3: count 1000 needs 12.0 kB,
// buffer view 0 holds 96 bytes") and are worded for the caller to prefix
// with the file's name.
func Read(b []byte, fsys fs.FS, maxBytes int64) (*File, error) {
	if int64(len(b)) > maxBytes {
		return nil, fmt.Errorf("%s file: %w (the limit is %s)", bytesize.Format(len(b)), ErrTooBig, bytesize.Format(maxBytes))
	}
	js, bin, glb := b, []byte(nil), len(b) >= 4 && string(b[:4]) == "glTF"
	var err error
	if glb {
		if js, bin, err = splitGLB(b); err != nil {
			return nil, err
		}
	}
	f := &File{read: int64(len(b))}
	if err := f.decode(js); err != nil {
		return nil, err
	}
	if !strings.HasPrefix(f.version, "2.") {
		return nil, fmt.Errorf("glTF asset version %.20q, want 2.x", f.version)
	}
	if err := f.loadBuffers(bin, glb, fsys, maxBytes); err != nil {
		return nil, err
	}
	return f, nil
}

// BytesRead is how many bytes the document took: the file and the
// external buffers it names.
func (f *File) BytesRead() int64 { return f.read }
