package gltfdoc

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"strings"

	"github.com/gloved/gloved/internal/bytesize"
	"github.com/gloved/gloved/internal/userfile"
)

// bufferFile is what a buffer beside a document may be: a regular file
// (its size is checked against its byteLength and Read's limit).
var bufferFile = userfile.Kind{Name: "a glTF buffer file"}

// DirFS is the directory dir, whose files a document names as its
// buffers: each opens only if it is a regular file, and never blocks.
func DirFS(dir string) fs.FS { return userfile.DirFS(dir, bufferFile) }

// loadBuffers gets every buffer's bytes: a GLB's BIN chunk, a base64 data
// URI, or a file beside the document in fsys (nil forbids files). Each
// must hold its declared byteLength, which is checked before it is read,
// and the files read must keep f.read within maxBytes.
func (f *File) loadBuffers(bin []byte, glb bool, fsys fs.FS, maxBytes int64) error {
	f.bufs = make([][]byte, len(f.buffers))
	for i, b := range f.buffers {
		var err error
		n := int64(b.length)
		switch {
		case n < 1:
			err = fmt.Errorf("byteLength %d, want at least 1", n)
		case glb && i == 0 && b.uri == "":
			if int64(len(bin)) < n {
				err = fmt.Errorf("byteLength %d, the GLB's BIN chunk holds %d bytes", n, len(bin))
			} else {
				f.bufs[i] = bin[:n]
			}
		case b.uri == "":
			err = errors.New("no uri")
		case strings.HasPrefix(b.uri, "data:"):
			f.bufs[i], err = dataURI(b.uri, n)
		default:
			f.bufs[i], err = f.file(fsys, b.uri, n, maxBytes)
		}
		if err != nil {
			return fmt.Errorf("buffer %d: %w", i, err)
		}
	}
	return nil
}

// dataURI decodes a base64 data URI holding at least n bytes.
func dataURI(uri string, n int64) ([]byte, error) {
	head, payload, ok := strings.Cut(uri, ",")
	if !ok || !strings.HasSuffix(head, ";base64") {
		return nil, fmt.Errorf("data URI %.40q: want base64", head)
	}
	enc := base64.StdEncoding
	if len(payload)%4 != 0 {
		enc = base64.RawStdEncoding
	}
	if int64(enc.DecodedLen(len(payload))) < n {
		return nil, fmt.Errorf("byteLength %d, the data URI holds %d bytes", n, enc.DecodedLen(len(payload)))
	}
	b := make([]byte, enc.DecodedLen(len(payload)))
	k, err := enc.Decode(b, []byte(payload))
	if err != nil {
		return nil, fmt.Errorf("data URI: %w", err)
	}
	if int64(k) < n {
		return nil, fmt.Errorf("byteLength %d, the data URI holds %d bytes", n, k)
	}
	return b[:n], nil
}

// file reads the first n bytes of a file named by a relative URI, each
// file once however many buffers name it.
func (f *File) file(fsys fs.FS, uri string, n, maxBytes int64) ([]byte, error) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "" || fsys == nil {
		return nil, fmt.Errorf("uri %.60q: only data: URIs and files beside the document are read", uri)
	}
	name := path.Clean(strings.ReplaceAll(u.Path, `\`, "/"))
	if !fs.ValidPath(name) {
		return nil, fmt.Errorf("uri %.60q: not a file beside the document", uri)
	}
	if b, ok := f.files[name]; ok && int64(len(b)) >= n {
		return b[:n], nil
	}
	r, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	st, err := r.Stat()
	if err != nil {
		return nil, err
	}
	switch {
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file", name)
	case st.Size() < n:
		return nil, fmt.Errorf("byteLength %d, %s holds %d bytes", n, name, st.Size())
	case f.read+n > maxBytes:
		return nil, fmt.Errorf("%s: %w: with the file and the buffers before it, more than %s", name, ErrTooBig, bytesize.Format(maxBytes))
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	f.read += n
	if f.files == nil {
		f.files = map[string][]byte{}
	}
	f.files[name] = b
	return b, nil
}

// view returns buffer view i's bytes and stride, checked against its
// buffer.
func (f *File) view(i int32) ([]byte, int64, error) {
	if i < 0 || int(i) >= len(f.views) {
		return nil, 0, fmt.Errorf("buffer view %d: out of range (%d buffer views)", i, len(f.views))
	}
	v := f.views[i]
	if int(v.buffer) >= len(f.bufs) {
		return nil, 0, fmt.Errorf("buffer view %d: buffer %d out of range (%d buffers)", i, v.buffer, len(f.bufs))
	}
	buf := f.bufs[v.buffer]
	off, n := int64(v.offset), int64(v.length)
	if n < 1 || off+n > int64(len(buf)) {
		return nil, 0, fmt.Errorf("buffer view %d: bytes %d to %d, buffer %d holds %d bytes", i, off, off+n, v.buffer, len(buf))
	}
	if v.stride != 0 && (v.stride < 4 || v.stride > 252) {
		return nil, 0, fmt.Errorf("buffer view %d: byteStride %d, want 4 to 252", i, v.stride)
	}
	return buf[off : off+n], int64(v.stride), nil
}

// splitGLB returns a GLB file's JSON chunk and its BIN chunk (nil if it
// has none), checking every declared length against the bytes present.
func splitGLB(b []byte) (doc, bin []byte, err error) {
	if len(b) < 20 {
		return nil, nil, fmt.Errorf("truncated GLB: %d bytes, the headers alone take 20", len(b))
	}
	if v := binary.LittleEndian.Uint32(b[4:]); v != 2 {
		return nil, nil, fmt.Errorf("GLB version %d, want 2", v)
	}
	n := int64(binary.LittleEndian.Uint32(b[8:]))
	if n > int64(len(b)) {
		return nil, nil, fmt.Errorf("truncated GLB: the header declares %d bytes, the file has %d", n, len(b))
	}
	if n < 20 {
		return nil, nil, fmt.Errorf("GLB: the header declares %d bytes, less than the headers take", n)
	}
	var chunks [2][]byte
	var types [2]string
	rest := b[12:n]
	for i := 0; i < 2 && len(rest) >= 8; i++ {
		n := int64(binary.LittleEndian.Uint32(rest))
		types[i] = string(rest[4:8])
		if n > int64(len(rest)-8) {
			return nil, nil, fmt.Errorf("truncated GLB: chunk %d (%q) declares %d bytes, %d remain", i, types[i], n, len(rest)-8)
		}
		chunks[i], rest = rest[8:8+n], rest[8+n:]
	}
	if types[0] != "JSON" {
		return nil, nil, fmt.Errorf("GLB: the first chunk is %q, want \"JSON\"", types[0])
	}
	if types[1] == "BIN\x00" {
		bin = chunks[1]
	}
	return chunks[0], bin, nil
}
