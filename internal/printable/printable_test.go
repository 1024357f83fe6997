package printable_test

import (
	"testing"

	"github.com/gloved/gloved/internal/printable"
)

// TestStringShowsCommandsAsQuestionMarks: escapes, C0 and C1 controls,
// DEL and bidirectional overrides become '?', bytes that are not UTF-8
// U+FFFD, and printable UTF-8 is kept as it is.
func TestStringShowsCommandsAsQuestionMarks(t *testing.T) {
	for in, want := range map[string]string{
		"\x1b]0;OWNED\x07\x1b[2J": "?]0;OWNED??[2J",
		"a\x7fb\u0085c\u202ed":    "a?b?c?d",
		"bad\xffbyte":             "bad\ufffdbyte",
		"Stuhl größe 椅子":          "Stuhl größe 椅子",
	} {
		if got := printable.String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}
