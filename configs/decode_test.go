package configs

import (
	"strings"
	"testing"
)

func TestDecodeIsStrict(t *testing.T) {
	type file struct {
		Name  string  `toml:"name"`
		Ratio float64 `toml:"ratio"`
	}
	tests := []struct {
		text, says string
	}{
		{"name = \"a\"\nratio = 0.5\n", ""},
		{"name = \"a\"\nratoi = 0.5\n", "f.toml: unknown key ratoi"},
		{"name = \"a\"\nratio = \"half\"\n", "ratio"},
		{"name = \"a\"\n[x\n", "f.toml: line 3: expected"},
	}
	for _, tc := range tests {
		var f file
		err := Decode("f.toml", []byte(tc.text), &f)
		if tc.says == "" {
			if err != nil || f.Name != "a" || f.Ratio != 0.5 {
				t.Errorf("%q: got %+v, %v", tc.text, f, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%q: got %v, want an error saying %q", tc.text, err, tc.says)
		}
	}
}
