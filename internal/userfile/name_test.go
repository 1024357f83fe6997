package userfile

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestNameQuotesOnlyAPathThatIsNotPlain: a plain path, spaces and
// non-ASCII letters included, is named as it is; one with a control
// character, a line separator or invalid UTF-8 is quoted, one line
// without a raw escape.
func TestNameQuotesOnlyAPathThatIsNotPlain(t *testing.T) {
	for _, p := range []string{"/tmp/glove.toml", "my scenes/table ball.obj", "données/main gauche.glove"} {
		if got := Name(p); got != p {
			t.Errorf("Name(%q) = %q, want it as it is", p, got)
		}
	}
	for p, want := range map[string]string{
		"a\nb\x1b[2J.glove": `"a\nb\x1b[2J.glove"`,
		"tab\there":         `"tab\there"`,
		"line\u2028sep":     `"line\u2028sep"`,
		"bad\xffutf8":       `"bad\xffutf8"`,
	} {
		if got := Name(p); got != want {
			t.Errorf("Name(%q) = %s, want %s", p, got, want)
		}
	}
}

// TestOpenNamesAPathQuotedWhenItIsNotPlain: the error of a file that
// cannot be opened names its path as Name does, and is still the
// *fs.PathError of a missing file.
func TestOpenNamesAPathQuotedWhenItIsNotPlain(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a\nb\x1b[2J.toml")
	_, err := ReadFile(p, calibration)
	if !errors.Is(err, fs.ErrNotExist) || strings.ContainsAny(err.Error(), "\n\x1b") || !strings.Contains(err.Error(), Name(p)) {
		t.Fatalf("ReadFile: %v", err)
	}
}
