package configs

import (
	"strconv"
	"strings"
)

// List joins words as messages list choices: "a", "a or b", "a, b or c"
// (and is "or", or "and").
func List(words []string, and string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + and + " " + words[len(words)-1]
}

// Numbers writes numbers as a TOML array, as a message gives a value to
// write: [0.0, 0.91, 1e-20].
func Numbers(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s[i], ".eIN") {
			s[i] += ".0"
		}
	}
	return "[" + strings.Join(s, ", ") + "]"
}
