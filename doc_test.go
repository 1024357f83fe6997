package gloved_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryPackageHasADocComment: every package directory has a doc.go (or,
// for a command, a main.go) whose package comment names its source (a
// "Sources:" paragraph citing titles or URLs, or the older shared/ paths).
func TestEveryPackageHasADocComment(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() || strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" {
			return err
		}
		gofiles, _ := filepath.Glob(filepath.Join(path, "*.go"))
		if len(gofiles) == 0 || path == "." {
			return nil
		}
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, path, nil, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil {
			return err
		}
		for name, pkg := range pkgs {
			if strings.HasSuffix(name, "_test") {
				continue
			}
			doc := ""
			for _, f := range pkg.Files {
				if f.Doc != nil {
					doc += f.Doc.Text()
				}
			}
			if doc == "" {
				t.Errorf("package %s (%s) has no doc comment", name, path)
			} else if name != "main" && !strings.Contains(doc, "shared/") && !strings.Contains(doc, "Source") {
				t.Errorf("package %s (%s): doc comment cites no source (Sources: a title or URL; or shared/)", name, path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
