package userfile

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Name is path as messages show it: as it is when it is plain, quoted
// (Go syntax, %q) when it holds a control character, a line or
// paragraph separator, or is not UTF-8, so
// that a message naming a path is still one line and passes no escape
// sequence to the user's terminal, while a plain path stays readable.
func Name(path string) string {
	if !utf8.ValidString(path) {
		return strconv.Quote(path)
	}
	for _, r := range path {
		if unicode.IsControl(r) || unicode.In(r, unicode.Zl, unicode.Zp) {
			return strconv.Quote(path)
		}
	}
	return path
}
