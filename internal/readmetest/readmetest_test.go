package readmetest

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestASectionLivesOnExactlyOnePage: the page holding a section's begin
// line is found among the README and docs/ pages; none, or two, is an
// error naming what to do or the pages.
func TestASectionLivesOnExactlyOnePage(t *testing.T) {
	root := filepath.Dir(Path())
	readme, osc, papers := Path(), filepath.Join(root, "docs", "osc.md"), filepath.Join(root, "docs", "papers.md")
	section := []byte("text\n<!-- begin frames -->\n| table |\n<!-- end frames -->\n")
	tests := []struct {
		name  string
		pages map[string][]byte
		want  string // the holder, or what the error says
	}{
		{"on a docs page", map[string][]byte{readme: []byte("# gloved\n"), osc: section}, osc},
		{"in the README", map[string][]byte{readme: section, osc: []byte("# OSC\n")}, readme},
		{"nowhere", map[string][]byte{readme: []byte("<!-- begin frame -->\n"), osc: nil}, `no page has section "frames"`},
		{"on two pages", map[string][]byte{readme: []byte("x"), osc: section, papers: section}, `section "frames" is on 2 pages, docs/osc.md and docs/papers.md`},
	}
	for _, tc := range tests {
		got, err := holder(tc.pages, "frames")
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestFilesAreTheREADMEAndTheDocsPages: the README first, then every
// docs/*.md.
func TestFilesAreTheREADMEAndTheDocsPages(t *testing.T) {
	files := Files()
	if len(files) < 2 || filepath.Base(files[0]) != "README.md" {
		t.Fatalf("got %v, want README.md and the docs pages", files)
	}
	for _, f := range files[1:] {
		if filepath.Base(filepath.Dir(f)) != "docs" || filepath.Ext(f) != ".md" {
			t.Errorf("%s is not a docs/*.md page", f)
		}
	}
}
