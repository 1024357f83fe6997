package configs

import (
	"bytes"
	"fmt"
)

// MaxDepth bounds how deep TOML that gloved reads may nest: the parts of
// a table header, the parts of a dotted key, and the inline tables and
// arrays a value opens, counted together. gloved's own files reach 5
// ([scene] files = [{ pose = [...] }]). The decoder copies a key's
// whole path at every level and lists every undecoded level as a key, so
// a file nested 20,000 deep took 16 GB and 76 s; it is refused before it
// is decoded.
const MaxDepth = 16

// shape is what a scan of TOML text finds without decoding it: where it
// first nests deeper than MaxDepth, and the arrays, inline tables and
// multi-line strings it opens and never closes.
type shape struct {
	tooDeep  int // the line where the text first nests deeper than MaxDepth; 0: never
	unclosed []opening
}

// opening is an array, inline table or multi-line string that text opens
// at byte offset at, on line line.
type opening struct {
	at, line int
	what     string
}

// frame is an open array or inline table: depth is the key depth of the
// keys inside an inline table, or the depth of an array's elements.
type frame struct {
	opening
	table bool
	depth int
}

// scanner reads TOML text only as far as the nesting needs: comments,
// strings, table headers, dotted keys and brackets.
type scanner struct {
	text      []byte
	i, line   int
	stack     []frame
	header    int  // the parts of the current table header
	lineStart bool // nothing but blanks since a newline at the top level
	inKey     bool // reading a key: dots separate its parts
	keyParts  int
	valueBase int // the depth of the key whose value is being read
	shape     shape
}

// scanShape scans TOML text for its nesting.
func scanShape(text []byte) shape {
	s := scanner{text: text, line: 1, lineStart: true, inKey: true, keyParts: 1}
	for s.i < len(text) && s.shape.tooDeep == 0 {
		if !s.step() {
			break
		}
	}
	for _, f := range s.stack {
		s.shape.unclosed = append(s.shape.unclosed, f.opening)
	}
	return s.shape
}

// step reads one token; false if the text ends inside a multi-line
// string (recorded as unclosed).
func (s *scanner) step() bool {
	c := s.text[s.i]
	switch {
	case c == '\n':
		s.line++
		if len(s.stack) == 0 {
			s.lineStart, s.inKey, s.keyParts = true, true, 1
		}
		s.i++
		return true
	case c == ' ' || c == '\t' || c == '\r':
		s.i++
		return true
	case c == '#':
		if n := bytes.IndexByte(s.text[s.i:], '\n'); n >= 0 {
			s.i += n
		} else {
			s.i = len(s.text)
		}
		return true
	}
	start := s.lineStart
	s.lineStart = false
	switch c {
	case '"', '\'':
		return s.skipString(c)
	case '[':
		if start {
			s.readHeader()
		} else {
			s.open(false)
		}
	case '{':
		s.open(true)
	case ']', '}':
		if n := len(s.stack); n > 0 && s.stack[n-1].table == (c == '}') {
			s.stack = s.stack[:n-1]
		}
	case '.':
		if s.inKey {
			s.keyParts++
		}
	case '=':
		if s.inKey {
			s.valueBase = s.base() + s.keyParts
			s.deeper(s.valueBase)
			s.inKey = false
		}
	case ',':
		if n := len(s.stack); n > 0 && s.stack[n-1].table {
			s.inKey, s.keyParts = true, 1
		}
	}
	s.i++
	return true
}

// base is the depth that a key read now starts from.
func (s *scanner) base() int {
	if n := len(s.stack); n > 0 {
		return s.stack[n-1].depth
	}
	return s.header
}

// deeper notes depth d reached at the current line.
func (s *scanner) deeper(d int) {
	if d > MaxDepth && s.shape.tooDeep == 0 {
		s.shape.tooDeep = s.line
	}
}

// open opens an inline table or an array: a key's value, or an element
// of an array.
func (s *scanner) open(table bool) {
	d := s.valueBase
	if n := len(s.stack); n > 0 && !s.stack[n-1].table {
		d = s.stack[n-1].depth
	}
	what := "an inline table"
	if !table {
		d++ // an array adds no key part, but the decoder descends into it
		what = "an array"
	}
	s.deeper(d)
	s.stack = append(s.stack, frame{opening: opening{at: s.i, line: s.line, what: what}, table: table, depth: d})
	s.inKey, s.keyParts = table, 1
}

// readHeader reads a table header, [a.b] or [[a.b]], and counts its parts.
func (s *scanner) readHeader() {
	parts := 1
	for s.i++; s.i < len(s.text); s.i++ {
		switch c := s.text[s.i]; c {
		case '\n':
			s.i-- // the next step counts the line; the decoder reports the header
			return
		case '"', '\'':
			s.skipString(c)
			s.i--
		case '.':
			parts++
		case ']':
			s.header, s.inKey = parts, false
			s.deeper(parts)
			if s.i+1 < len(s.text) && s.text[s.i+1] == ']' {
				s.i++
			}
			return
		}
	}
}

// skipString moves past a string that opens at s.i with quote q and
// returns false if it is a multi-line string that never closes. A
// single-line string stops at the end of its line: the decoder reports
// one left open there.
func (s *scanner) skipString(q byte) bool {
	delim := []byte{q, q, q}
	if bytes.HasPrefix(s.text[s.i:], delim) {
		return s.skipMultiline(delim)
	}
	for s.i++; s.i < len(s.text); s.i++ {
		switch s.text[s.i] {
		case '\\':
			if q == '"' {
				s.i++
			}
		case '\n':
			return true
		case q:
			s.i++
			return true
		}
	}
	return true
}

// skipMultiline moves past a multi-line string opening at s.i.
func (s *scanner) skipMultiline(delim []byte) bool {
	open := opening{at: s.i, line: s.line, what: fmt.Sprintf("a multi-line string (%s)", delim)}
	for s.i += 3; s.i < len(s.text); s.i++ {
		switch s.text[s.i] {
		case '\\':
			if delim[0] == '"' && s.i+1 < len(s.text) {
				if s.text[s.i+1] == '\n' {
					s.line++
				}
				s.i++
			}
		case '\n':
			s.line++
		case delim[0]:
			if bytes.HasPrefix(s.text[s.i:], delim) {
				// Up to two quotes may end the content: """a""""" is a"".
				s.i += 3
				for k := 0; k < 2 && s.i < len(s.text) && s.text[s.i] == delim[0]; k++ {
					s.i++
				}
				return true
			}
		}
	}
	s.shape.unclosed = append(s.shape.unclosed, open)
	return false
}
