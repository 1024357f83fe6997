package printable

import (
	"strings"
	"unicode"
)

// String is s with what a terminal would take as a command (escapes,
// C0 and C1 control characters, DEL) or what reorders or hides text
// (format characters such as bidirectional overrides) shown as '?'; a
// byte that is not UTF-8 becomes U+FFFD.
func String(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return '?'
		}
		return r
	}, s)
}
