package configs

import (
	"fmt"
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
		{"name = \"a\"\n[x\n", "f.toml: line 2: expected"},
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

// nested is TOML nesting depth levels in each of the ways TOML nests.
func nested(depth int) map[string]string {
	return map[string]string{
		"table header":  "[" + strings.Repeat("a.", depth-1) + "a]\n",
		"dotted key":    strings.Repeat("a.", depth-1) + "a = 1\n",
		"inline tables": "a = " + strings.Repeat("{a = ", depth-1) + "1" + strings.Repeat("}", depth-1) + "\n",
		"arrays":        "a = " + strings.Repeat("[", depth-1) + "1" + strings.Repeat("]", depth-1) + "\n",
		"all at once":   "[a.a]\na.a = {a = {a = [[" + strings.Repeat("[", depth-8) + "1" + strings.Repeat("]", depth-8) + "]]}}\n",
		"after a BOM":   "\ufeff[" + strings.Repeat("a.", depth-1) + "a]\n",
	}
}

// TestDecodeRefusesDeepNestingBeforeDecoding: text nested deeper than
// MaxDepth, in any way or all together, is refused with one short line
// naming the limit, whatever its depth; at MaxDepth it decodes.
func TestDecodeRefusesDeepNestingBeforeDecoding(t *testing.T) {
	for _, depth := range []int{MaxDepth + 1, 20_000} {
		for how, text := range nested(depth) {
			var v map[string]any
			err := Decode("deep.toml", []byte(text), &v)
			want := "nested deeper than 16 levels"
			if err == nil || !strings.HasPrefix(err.Error(), "deep.toml: line ") || !strings.Contains(err.Error(), want) || len(err.Error()) > 200 {
				t.Errorf("%s %d deep: got %.300v, want one short line saying %q", how, depth, err, want)
			}
		}
	}
	for how, text := range nested(MaxDepth) {
		var v map[string]any
		if err := Decode("deep.toml", []byte(text), &v); err != nil && strings.Contains(err.Error(), "nested") {
			t.Errorf("%s %d deep: %v", how, MaxDepth, err)
		}
	}
}

// TestDecodeNamesTheLineOfTheMistake: a syntax error is reported on the
// line that holds it: where an array, inline table or multi-line string
// that never closes was opened, rather than where the decoder gave up,
// and on the line of a table header that lacks its ], not the next.
func TestDecodeNamesTheLineOfTheMistake(t *testing.T) {
	head := "b = \"[{\" # [{\nc = '''\n[\n'''\nd = [\n  1, # ]\n"
	tests := []struct {
		line8, says string
	}{
		{"h = [1,", "f.toml: line 8: an array begun here is never closed (the decoder gave up at line 10: "},
		{`h = [1, "]", [2]`, "f.toml: line 8: an array begun here is never closed"},
		{"h = {x = 1", "f.toml: line 8: an inline table begun here is never closed"},
		{`h = """abc`, `f.toml: line 8: a multi-line string (""") begun here is never closed`},
		{"h = '''abc", "f.toml: line 8: a multi-line string (''') begun here is never closed"},
		{"[tab", "f.toml: line 8: expected '.' or ']' to end table name"},
		{"h = [1 2]", "f.toml: line 8: expected a comma"},
		{"h = tru", `f.toml: line 8: expected value but found "tru" instead`},
	}
	for _, tc := range tests {
		text := head + "]\n" + tc.line8 + "\n\ni = 3\nj = 4\n"
		for _, bom := range []string{"", "\ufeff"} {
			var v map[string]any
			err := Decode("f.toml", []byte(bom+text), &v)
			if err == nil || !strings.HasPrefix(err.Error(), tc.says) {
				t.Errorf("%q (BOM %q): got %v, want an error starting %q", tc.line8, bom, err, tc.says)
			}
		}
	}
}

// TestDecodeErrorLinesStayShort: however many unknown keys a file has and
// however long they are, the error names a few, clipped, and counts the
// rest.
func TestDecodeErrorLinesStayShort(t *testing.T) {
	var many strings.Builder
	for i := range 20_000 {
		fmt.Fprintf(&many, "k%d = 1\n", i)
	}
	type file struct {
		Name string `toml:"name"`
	}
	tests := []struct {
		text, want string
	}{
		{many.String(), "f.toml: unknown key k0, k1, k2 and 19997 more"},
		{strings.Repeat("a", 100_000) + " = 1\n", "f.toml: unknown key " + strings.Repeat("a", 60) + "... (100000 bytes)"},
		{"name = " + strings.Repeat("x", 100_000) + "\n", `f.toml: line 1: expected value but found "` + strings.Repeat("x", maxMessage-len(`expected value but found "`)) + `... (100035 bytes)`},
	}
	for _, tc := range tests {
		var f file
		err := Decode("f.toml", []byte(tc.text), &f)
		if err == nil || err.Error() != tc.want {
			t.Errorf("got %.300v, want %.300q", err, tc.want)
		}
	}
}

// TestDecodeNamesAWrongTypeInTOMLsWords: a value of the wrong type is
// named by its line and key in TOML's words, never a Go type's.
func TestDecodeNamesAWrongTypeInTOMLsWords(t *testing.T) {
	type file struct {
		Name  string `toml:"name"`
		Rate  int    `toml:"rate"`
		Files []struct {
			Path string `toml:"path"`
		} `toml:"files"`
		Pose  [3]float64 `toml:"pose"`
		Scene struct {
			Up bool `toml:"up"`
		} `toml:"scene"`
	}
	for _, tc := range []struct{ text, says string }{
		{"files = [\"a.obj\"]", "f.toml: line 1: files: a table is wanted ({ key = value, ... } or a [header]), not a string"},
		{"\nrate = \"fast\"", "f.toml: line 2: rate: an integer is wanted, not a string"},
		{"rate = 2.5", "f.toml: line 1: rate: an integer is wanted, not a number with a fraction"},
		{"name = 3", "f.toml: line 1: name: a string is wanted, not an integer"},
		{"pose = [1, 2]", "f.toml: line 1: pose: an array of 3 values is wanted, not of 2"},
		{"scene = 3", "f.toml: line 1: scene: a table is wanted ({ key = value, ... } or a [header]), not an integer"},
		{"[scene]\nup = \"y\"", "f.toml: line 2: scene.up: true or false is wanted, not a string"},
		{"[name]\nx = 1", "f.toml: line 1: name: a string is wanted, not a table"},
	} {
		var f file
		err := Decode("f.toml", []byte(tc.text), &f)
		if err == nil || !strings.HasPrefix(err.Error(), tc.says) || strings.Contains(err.Error(), "struct") {
			t.Errorf("%q: got %v, want %q", tc.text, err, tc.says)
		}
	}
}
