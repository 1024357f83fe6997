package configs

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"github.com/gloved/gloved/internal/userfile"
)

// Error lines stay short whatever a file holds: at most maxKeys unknown
// keys are named, each key and the decoder's message clipped.
const (
	maxKeys    = 3
	maxKeyLen  = 60
	maxMessage = 200
)

// Decode decodes TOML text into v strictly, as every gloved file is read:
// a syntax error names its line (where an array, inline table or
// multi-line string that never closes was opened, not where the decoder
// gave up), a value of the wrong type its key, and a key v does not have
// is an error naming it. Text nested deeper than MaxDepth is refused
// before it is decoded. name labels the errors.
func Decode(name string, text []byte, v any) error {
	text = trimBOM(text)
	sh := scanShape(text)
	if sh.tooDeep > 0 {
		return fmt.Errorf("%s: line %d: nested deeper than %d levels (table headers, dotted keys, inline tables and arrays together; gloved's own files need 5)",
			name, sh.tooDeep, MaxDepth)
	}
	md, err := toml.Decode(string(text), v)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return fmt.Errorf("%s: %s", userfile.Name(name), syntaxError(text, pe, sh))
		}
		if msg, ok := typeError(err.Error()); ok {
			return fmt.Errorf("%s: %s", userfile.Name(name), msg)
		}
		return fmt.Errorf("%s: %s", userfile.Name(name), Clip(err.Error(), maxMessage))
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, 0, maxKeys)
		for _, k := range und[:min(len(und), maxKeys)] {
			keys = append(keys, Clip(k.String(), maxKeyLen))
		}
		more := ""
		if n := len(und) - len(keys); n > 0 {
			more = fmt.Sprintf(" and %d more", n)
		}
		return fmt.Errorf("%s: unknown key %s%s", userfile.Name(name), strings.Join(keys, ", "), more)
	}
	return nil
}

// trimBOM drops a byte-order mark as the decoder does, so that the scan
// reads what the decoder reads and the decoder's offsets are text's.
func trimBOM(text []byte) []byte {
	for _, bom := range []string{"\xef\xbb\xbf", "\xff\xfe", "\xfe\xff"} {
		if t, ok := bytes.CutPrefix(text, []byte(bom)); ok {
			return t
		}
	}
	return text
}

// syntaxError words a decoder's syntax error: on the line it is at (the
// decoder counts the newline it stops at as the next line's), or on the
// line of an opening never closed before it.
func syntaxError(text []byte, pe toml.ParseError, sh shape) string {
	line, at := pe.Position.Line, pe.Position.Start
	if at >= 0 && at <= len(text) {
		line = 1 + bytes.Count(text[:at], []byte{'\n'})
	}
	msg := Clip(pe.Message, maxMessage)
	for _, o := range sh.unclosed {
		if o.at < at && o.line < line {
			return fmt.Sprintf("line %d: %s begun here is never closed (the decoder gave up at line %d: %s)", o.line, o.what, line, msg)
		}
	}
	return fmt.Sprintf("line %d: %s", line, msg)
}

// Clip shortens s to about n bytes, saying how long it was: a value
// quoted in a message stays one readable line.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes)", s[:cut], len(s))
}
