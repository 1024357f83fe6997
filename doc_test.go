package gloved_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// synopsisMax bounds a package doc's first sentence, what `go doc` and
// package lists show of it: long enough to say what the package is, short
// enough to read at a glance.
const synopsisMax = 200

var (
	// outsidePath is a path a user of the repository does not have: one
	// that climbs out of it, or the notes kept beside it (shared/).
	outsidePath = regexp.MustCompile(`(^|[\s("'])(\.\./|shared/)`)
	// namesSource is how a doc names where its package comes from: a
	// "Source:" or "Sources:" (a paper by title, authors and venue, a
	// specification, an RFC, a URL), in any words that say so.
	namesSource = regexp.MustCompile(`(?i)\bsources?\b`)
)

// TestEveryPackageHasADocComment: every package has a doc comment that
// reads as an introduction (its first sentence, at most synopsisMax
// characters, begins "Package name", or "Command" for a command), names
// its source (not for a command), and cites it so that a user of the
// repository can find it: by title, authors and venue, never by a path
// outside the repository.
func TestEveryPackageHasADocComment(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, path, nil, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil {
			return err
		}
		for name, pkg := range pkgs {
			if !strings.HasSuffix(name, "_test") {
				checkPackageDoc(t, path, name, pkg)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// checkPackageDoc checks one package's doc comment.
func checkPackageDoc(t *testing.T, path, name string, pkg *ast.Package) {
	t.Helper()
	text := ""
	for _, f := range pkg.Files {
		if f.Doc != nil {
			text += f.Doc.Text()
		}
	}
	if text == "" {
		t.Errorf("package %s (%s) has no doc comment: write a doc.go saying what it is and citing its source", name, path)
		return
	}
	var p doc.Package
	synopsis := p.Synopsis(text)
	start := "Package " + name + " "
	if name == "main" {
		start = "Command "
	}
	switch {
	case !strings.HasPrefix(synopsis, start):
		t.Errorf("package %s (%s): its doc begins %q, want %q and what the package is", name, path, firstWords(synopsis), start)
	case len(synopsis) > synopsisMax:
		t.Errorf("package %s (%s): its first sentence has %d characters, want at most %d: say what it is, then the details in sentences of their own", name, path, len(synopsis), synopsisMax)
	}
	if m := outsidePath.FindString(text); m != "" {
		t.Errorf("package %s (%s): its doc cites %q, a path outside the repository: cite the paper or reference by title, authors and venue (or URL)", name, path, strings.TrimSpace(m))
	}
	if name != "main" && !namesSource.MatchString(text) {
		t.Errorf(`package %s (%s): its doc names no source: say where what it implements comes from ("Source: ..."), a paper by title, authors and venue, a specification or a URL`, name, path)
	}
}

// firstWords is the beginning of s, for a message.
func firstWords(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

func TestOutsidePathsAreRecognised(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"Source: shared/seeds/cab-articulated-obb-update.txt", true},
		{"(the seed ../shared/seeds/sphere-chains.txt)", true},
		{"see ../README.md", true},
		{"Source: H. Schmidl, N. Walker, M. C. Lin, \"CAB\", Journal of Graphics Tools 9(2), 2004", false},
		{"the WebXR generic hand in handmodel/testdata/webxr-generic-hand", false},
		{"the boxes shared/ between hands", true},
		{"the scene's shared vertices", false},
	}
	for _, tc := range tests {
		if got := outsidePath.MatchString(tc.text); got != tc.want {
			t.Errorf("%q: got %v, want %v", tc.text, got, tc.want)
		}
	}
}
