package main

import (
	"bytes"
	"strings"
	"testing"
)

// fixture runs testrun with args on testdata/fixture, a module of three
// packages: one passes, one skips three tests for two reasons, one fails.
func fixture(t *testing.T, args ...string) (out string, status int) {
	t.Helper()
	t.Setenv("GOFLAGS", "")
	t.Setenv("GOWORK", "off")
	var stdout, stderr bytes.Buffer
	status = run("testdata/fixture", args, &stdout, &stderr)
	if stderr.Len() > 0 {
		t.Logf("stderr:\n%s", stderr.String())
	}
	return stdout.String(), status
}

// TestTheLastLineNamesEverySkippedTestAndWhy: the skipped tests are
// grouped by the reason each gave, in one line after go test's own.
func TestTheLastLineNamesEverySkippedTestAndWhy(t *testing.T) {
	out, _ := fixture(t, "-count=1")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	want := "skipped 3 tests: no peer here: apt-get install peer (fixture/skips.TestNeedsAPeer, fixture/skips.TestNeedsItToo); needs root (fixture/skips.TestNeedsSomethingElse/inside)"
	if got := lines[len(lines)-1]; got != want {
		t.Errorf("last line\n%s\nwant\n%s\nall:\n%s", got, want, out)
	}
}

// TestOutputIsGoTestsWithoutV: a passing package is one "ok" line; a
// failing one shows its failing test's messages, not its passing tests',
// and the status is go test's.
func TestOutputIsGoTestsWithoutV(t *testing.T) {
	out, status := fixture(t, "-count=1")
	if status != 1 {
		t.Errorf("status %d, want 1 (a test failed)", status)
	}
	for _, want := range []string{"ok  \tfixture/passes", "ok  \tfixture/skips", "fails_test.go:6: what went wrong", "--- FAIL: TestFails", "FAIL\tfixture/fails"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	for _, unwanted := range []string{"a line only -v shows", "a passing test's line", "=== RUN"} {
		if strings.Contains(out, unwanted) {
			t.Errorf("%q printed without -v:\n%s", unwanted, out)
		}
	}
	if i, j := strings.Index(out, "what went wrong"), strings.Index(out, "FAIL\tfixture/fails"); i > j {
		t.Errorf("the package's FAIL line comes before its test's message:\n%s", out)
	}
}

// TestNothingSkippedNoLine: a run that skips nothing ends with go test's
// last line, and passes.
func TestNothingSkippedNoLine(t *testing.T) {
	out, status := fixture(t, "./passes")
	if status != 0 || strings.Contains(out, "skipped") || !strings.HasPrefix(out, "ok  \tfixture/passes") {
		t.Errorf("status %d, output\n%s", status, out)
	}
}

// TestVerbosePrintsEveryLine: with -v every line is printed as go test -v
// prints it, and the skipped line still ends the run.
func TestVerbosePrintsEveryLine(t *testing.T) {
	out, _ := fixture(t, "-v", "./passes", "./skips")
	if !strings.Contains(out, "a line only -v shows") || !strings.Contains(out, "=== RUN   TestNeedsAPeer") {
		t.Errorf("-v left lines out:\n%s", out)
	}
	if !strings.Contains(out, "\nskipped 3 tests: ") {
		t.Errorf("no skipped line:\n%s", out)
	}
}

// TestPackagesDefaultToEveryPackage: ./... is added only when no argument
// names a package.
func TestPackagesDefaultToEveryPackage(t *testing.T) {
	for _, tc := range []struct{ args, want []string }{
		{nil, []string{"./..."}},
		{[]string{"-race", "-count", "1"}, []string{"-race", "-count", "1", "./..."}},
		{[]string{"-short", "-args", "-x"}, []string{"-short", "./...", "-args", "-x"}},
		{[]string{"-run=X", "./cab"}, []string{"-run=X", "./cab"}},
		{[]string{"-run", "./cab"}, []string{"-run", "./cab", "./..."}},
		{[]string{"./cab", "-args", "-x"}, []string{"./cab", "-args", "-x"}},
		{[]string{""}, []string{""}},
	} {
		if got := withPackages(tc.args); strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("withPackages(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}
