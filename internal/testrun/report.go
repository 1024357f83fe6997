package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
)

// event is one line of go test -json (cmd/test2json's TestEvent).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// line is one line of a package's output, and the test that wrote it.
type line struct{ test, text string }

// pkg is what a package has printed so far.
type pkg struct {
	lines []line
	// result is each test's last pass, fail or skip.
	result map[string]string
	// closing is the package's "ok", "FAIL" or "?" line, printed after
	// what its failing tests wrote, as go test does.
	closing string
}

// skip is one skipped test and the reason it gave.
type skip struct{ test, reason string }

// report turns go test -json back into go test's own short output and
// keeps the skipped tests.
type report struct {
	w io.Writer
	// verbose prints every line as it comes, as go test -v does.
	verbose bool
	pkgs    map[string]*pkg
	skips   []skip
}

func newReport(w io.Writer, verbose bool) *report {
	return &report{w: w, verbose: verbose, pkgs: map[string]*pkg{}}
}

// read handles every event of r until it ends.
func (r *report) read(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			// Not an event (go vet's or the linker's own words): as it came.
			fmt.Fprintln(r.w, sc.Text())
			continue
		}
		r.handle(e)
	}
	return sc.Err()
}

func (r *report) handle(e event) {
	if e.Action == "build-output" {
		fmt.Fprint(r.w, e.Output)
		return
	}
	p := r.pkgs[e.Package]
	if p == nil {
		p = &pkg{result: map[string]string{}}
		r.pkgs[e.Package] = p
	}
	switch e.Action {
	case "output":
		if r.verbose {
			fmt.Fprint(r.w, e.Output)
			if e.Test != "" {
				p.lines = append(p.lines, line{e.Test, e.Output})
			}
			return
		}
		if e.Test == "" && isResultLine(e.Output) {
			p.closing += e.Output
			return
		}
		p.lines = append(p.lines, line{e.Test, e.Output})
	case "pass", "fail", "skip":
		if e.Test != "" {
			p.result[e.Test] = e.Action
			if e.Action == "skip" {
				r.skips = append(r.skips, skip{e.Package + "." + e.Test, reason(p.lines, e.Test)})
			}
			return
		}
		if e.Action == "fail" && !r.verbose {
			r.failed(p)
		}
		fmt.Fprint(r.w, p.closing)
		delete(r.pkgs, e.Package)
	}
}

// failed prints what go test prints of a package that failed: the output
// of every test that did not pass or skip (a panic or a timeout leaves the
// running test with no result), and the package's own lines.
func (r *report) failed(p *pkg) {
	for _, l := range p.lines {
		if res := p.result[l.test]; res == "pass" || res == "skip" || isProgress(l.text) {
			continue
		}
		fmt.Fprint(r.w, l.text)
	}
}

// isResultLine reports whether a package's line is its closing line: "ok",
// "FAIL" or "?" followed by a tab and the package.
func isResultLine(s string) bool {
	return strings.HasPrefix(s, "ok  \t") || strings.HasPrefix(s, "FAIL\t") || strings.HasPrefix(s, "?   \t")
}

// isProgress reports whether s is one of the lines only -v prints.
func isProgress(s string) bool {
	for _, p := range []string{"=== RUN", "=== PAUSE", "=== CONT", "=== NAME", "PASS\n"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// position is the "file_test.go:12: " testing puts before a message.
var position = regexp.MustCompile(`^\s*[\w.-]+\.go:\d+: `)

// reason is what test wrote before it was skipped, without positions and
// testing's own lines: the argument of its t.Skip.
func reason(lines []line, test string) string {
	var words []string
	for _, l := range lines {
		if l.test != test || isProgress(l.text) || strings.Contains(l.text, "--- SKIP: ") {
			continue
		}
		if t := strings.TrimSpace(position.ReplaceAllString(l.text, "")); t != "" {
			words = append(words, t)
		}
	}
	if len(words) == 0 {
		return "no reason given"
	}
	return strings.Join(words, " ")
}

// summary prints the one line of skipped tests, grouped by reason in the
// order they were first met, or nothing when none was skipped.
func (r *report) summary() {
	if len(r.skips) == 0 {
		return
	}
	var order []string
	tests := map[string][]string{}
	for _, s := range r.skips {
		if _, ok := tests[s.reason]; !ok {
			order = append(order, s.reason)
		}
		tests[s.reason] = append(tests[s.reason], s.test)
	}
	groups := make([]string, len(order))
	for i, why := range order {
		names := tests[why]
		slices.Sort(names)
		groups[i] = fmt.Sprintf("%s (%s)", why, strings.Join(names, ", "))
	}
	fmt.Fprintf(r.w, "skipped %d %s: %s\n", len(r.skips), plural(len(r.skips), "test"), strings.Join(groups, "; "))
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
