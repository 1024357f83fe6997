package configs

import (
	"slices"
	"testing"
)

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

// TestNumbersIsATOMLArray: what Numbers writes decodes to the numbers it
// was given, each a TOML float.
func TestNumbersIsATOMLArray(t *testing.T) {
	in := []float64{0, 0.91, -1e-20, 3, 1e21, -0.70710678}
	text := Numbers(in)
	if text != "[0.0, 0.91, -1e-20, 3.0, 1e+21, -0.70710678]" {
		t.Errorf("got %s", text)
	}
	var v struct {
		A []float64 `toml:"a"`
	}
	if err := Decode("n.toml", []byte("a = "+text), &v); err != nil || !slices.Equal(v.A, in) {
		t.Errorf("%s decodes to %v, %v; want %v", text, v.A, err, in)
	}
}
