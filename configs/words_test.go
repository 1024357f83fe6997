package configs

import "testing"

// TestListReadsAsASentence: none, one, two and three words.
func TestListReadsAsASentence(t *testing.T) {
	for _, tc := range []struct {
		words []string
		want  string
	}{{nil, ""}, {[]string{"a"}, "a"}, {[]string{"a", "b"}, "a or b"}, {[]string{"a", "b", "c"}, "a, b or c"}} {
		if got := List(tc.words, "or"); got != tc.want {
			t.Errorf("%v: got %q, want %q", tc.words, got, tc.want)
		}
	}
}
