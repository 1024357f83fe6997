package gloved_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/gloved/gloved/internal/readmetest"
)

// readmeMaxLines keeps the README a front door: what gloved is, the
// commands to try it, and where to read on; the rest is in docs/.
const readmeMaxLines = 400

// page is a Markdown page of the documentation, by its path from the
// repository's root.
type page struct {
	path  string
	lines []string // outside fenced code blocks, inline code blanked
}

// readPages reads README.md and docs/*.md.
func readPages(t *testing.T) []page {
	t.Helper()
	var pages []page
	for _, path := range readmetest.Files() {
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, err := filepath.Rel(filepath.Dir(readmetest.Path()), path)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, page{path: filepath.ToSlash(rel), lines: prose(string(text))})
	}
	return pages
}

var codeSpan = regexp.MustCompile("`+[^`]*`+")

// prose returns the lines of Markdown text that are not in a fenced code
// block, each code span replaced by spaces, fenced lines left empty: what
// can hold a link or a heading.
func prose(text string) []string {
	lines := strings.Split(text, "\n")
	fence := ""
	for i, l := range lines {
		trimmed := strings.TrimLeft(l, " ")
		switch {
		case fence == "" && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			fence, lines[i] = trimmed[:3], ""
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			lines[i] = ""
		default:
			lines[i] = codeSpan.ReplaceAllStringFunc(l, func(s string) string { return strings.Repeat(" ", len(s)) })
		}
	}
	return lines
}

var (
	atxHeading = regexp.MustCompile(`^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$`)
	inlineLink = regexp.MustCompile(`!?\[([^\]]*)\]\(([^)\s]*)(?:\s+"[^"]*")?\)`)
	scheme     = regexp.MustCompile(`^[a-zA-Z][a-zA-Z+.-]*:`)
)

// anchors returns the anchors GitHub gives a page's headings: the heading
// text as rendered (links as their text, code and emphasis marks gone),
// lower-cased, every character but letters, digits, '_', '-' and spaces
// dropped, spaces turned to '-'; a repeated anchor gets "-1", "-2", ...
func anchors(text string) map[string]bool {
	raw := strings.Split(text, "\n")
	out, seen := map[string]bool{}, map[string]int{}
	for i, l := range prose(text) {
		m := atxHeading.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		// The heading's own text, code spans included.
		heading := atxHeading.FindStringSubmatch(raw[i])[1]
		a := slug(inlineLink.ReplaceAllString(heading, "$1"))
		if n, ok := seen[a]; ok {
			seen[a] = n + 1
			a = fmt.Sprintf("%s-%d", a, n+1)
		} else {
			seen[a] = 0
		}
		out[a] = true
	}
	return out
}

// slug is GitHub's anchor for a heading's text.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestSlugIsGitHubsAnchor(t *testing.T) {
	tests := []struct{ heading, want string }{
		{"The OSC contract", "the-osc-contract"},
		{"Output profiles: OpenXR, VRChat, VMC, other coordinates", "output-profiles-openxr-vrchat-vmc-other-coordinates"},
		{"`gloved collide A B`", "gloved-collide-a-b"},
		{"Experiments (`gloved bench bch`)", "experiments-gloved-bench-bch"},
		{"VRChat's mDNS quirks and how gloved handles them", "vrchats-mdns-quirks-and-how-gloved-handles-them"},
		{"openxr: the hand as OpenXR and WebXR see it", "openxr-the-hand-as-openxr-and-webxr-see-it"},
		{"Sphere chains (Madera, Ayala and Moo-Mena 2015)", "sphere-chains-madera-ayala-and-moo-mena-2015"},
		{"osc.profile rate_hz", "oscprofile-rate_hz"},
		{"Stüvel et al.", "stüvel-et-al"},
	}
	for _, tc := range tests {
		heading := inlineLink.ReplaceAllString(tc.heading, "$1")
		if got := slug(heading); got != tc.want {
			t.Errorf("slug(%q) = %q, want %q", tc.heading, got, tc.want)
		}
	}
	got := anchors("# A\n\n```sh\n# not a heading\n```\n## A\n### [`A`](x.md)\n")
	for _, want := range []string{"a", "a-1", "a-2"} {
		if !got[want] {
			t.Errorf("anchors: got %v, want %s", got, want)
		}
	}
	if len(got) != 3 {
		t.Errorf("anchors: got %v, want a, a-1, a-2 (a fenced line is no heading)", got)
	}
}

// TestEveryLinkInTheDocsResolves: every relative link and image of
// README.md and docs/*.md names a file or folder of the repository, and
// every #anchor a heading of the page it points at (by GitHub's rules),
// so that moving text cannot leave a dead link behind.
func TestEveryLinkInTheDocsResolves(t *testing.T) {
	root := filepath.Dir(readmetest.Path())
	cache := map[string]map[string]bool{}
	anchorsOf := func(path string) (map[string]bool, error) {
		if a, ok := cache[path]; ok {
			return a, nil
		}
		text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
		if err != nil {
			return nil, err
		}
		cache[path] = anchors(string(text))
		return cache[path], nil
	}
	links := 0
	for _, p := range readPages(t) {
		text := strings.Join(p.lines, "\n") // a link's text may run over lines
		for _, m := range inlineLink.FindAllStringSubmatchIndex(text, -1) {
			target := text[m[4]:m[5]]
			if target == "" || scheme.MatchString(target) {
				continue // a URL: not ours to check
			}
			links++
			if err := resolve(root, p.path, target, anchorsOf); err != nil {
				t.Errorf("%s:%d: [%s](%s): %v", p.path, strings.Count(text[:m[0]], "\n")+1, text[m[2]:m[3]], target, err)
			}
		}
	}
	if links < 100 {
		t.Errorf("found %d relative links in the docs: the parser has lost them", links)
	}
}

// resolve checks one relative link of the page at from.
func resolve(root, from, target string, anchorsOf func(string) (map[string]bool, error)) error {
	file, anchor, _ := strings.Cut(target, "#")
	path := from
	if file != "" {
		path = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(from), file)))
		if path == ".." || strings.HasPrefix(path, "../") {
			return fmt.Errorf("points outside the repository")
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(path))); err != nil {
			return fmt.Errorf("no such file: %s", path)
		}
	}
	if anchor == "" {
		return nil
	}
	if filepath.Ext(path) != ".md" {
		return fmt.Errorf("an anchor into %s, which is not a Markdown page", path)
	}
	a, err := anchorsOf(path)
	if err != nil {
		return err
	}
	if !a[anchor] {
		return fmt.Errorf("%s has no heading whose anchor is #%s", path, anchor)
	}
	return nil
}

// TestTheREADMEIsAFrontDoor: the README stays short and leads to every
// page of docs/, so that no page is left where no reader finds it.
func TestTheREADMEIsAFrontDoor(t *testing.T) {
	pages := readPages(t)
	readme := pages[0]
	if n := len(readme.lines); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, want at most %d: move the detail to a page of docs/ and link it", n, readmeMaxLines)
	}
	linked := map[string]bool{}
	for _, l := range readme.lines {
		for _, m := range inlineLink.FindAllStringSubmatch(l, -1) {
			file, _, _ := strings.Cut(m[2], "#")
			linked[file] = true
		}
	}
	for _, p := range pages[1:] {
		if !linked[p.path] {
			t.Errorf("README.md does not link %s: add it to its pages", p.path)
		}
	}
}

// TestTablesEscapeTheirPipes: a | inside a code span in a table row ends
// the cell on GitHub unless written \|.
func TestTablesEscapeTheirPipes(t *testing.T) {
	pipe := regexp.MustCompile(`(^|[^\\])\|`)
	root := filepath.Dir(readmetest.Path())
	for _, p := range readPages(t) {
		text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p.path)))
		if err != nil {
			t.Fatal(err)
		}
		for n, l := range strings.Split(string(text), "\n") {
			if p.lines[n] == "" || !strings.HasPrefix(strings.TrimSpace(l), "|") {
				continue // fenced, or not a table row
			}
			for _, span := range codeSpan.FindAllString(l, -1) {
				if pipe.MatchString(strings.Trim(span, "`")) {
					t.Errorf("%s:%d: %s: write \\| for a | in a table", p.path, n+1, span)
				}
			}
		}
	}
}
