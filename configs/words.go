package configs

import "strings"

// List joins words as messages list choices: "a", "a or b", "a, b or c"
// (and is "or", or "and").
func List(words []string, and string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + and + " " + words[len(words)-1]
}
