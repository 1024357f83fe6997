package configs

import (
	"errors"
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
)

// Decode decodes TOML text into v strictly, as every gloved file is read:
// a syntax error names its line, a value of the wrong type its key, and a
// key v does not have is an error naming it. name labels the errors.
func Decode(name string, text []byte, v any) error {
	md, err := toml.Decode(string(text), v)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return fmt.Errorf("%s: line %d: %s", name, pe.Position.Line, pe.Message)
		}
		return fmt.Errorf("%s: %v", name, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return fmt.Errorf("%s: unknown key %s", name, strings.Join(keys, ", "))
	}
	return nil
}
