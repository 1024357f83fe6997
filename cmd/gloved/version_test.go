package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

func TestDescribeBuildPrefersTheStampThenTheBuildRecord(t *testing.T) {
	goLine := func(v string) string { return v + " " + runtime.GOOS + "/" + runtime.GOARCH }
	vcs := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "83eb333af0c1"}, {Key: "vcs.modified", Value: "true"}}}
	installed := &debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Version: "v0.4.0"}}
	tests := []struct {
		name            string
		version, commit string
		modified        string
		bi              *debug.BuildInfo
		ok              bool
		want            build
	}{
		{"stamped", "0.4.0", "a3f2fd4", "", vcs, true, build{Version: "0.4.0", Commit: "a3f2fd4", Go: goLine("go1.26.0")}},
		{"stamped from a modified tree", "0.4.0", "a3f2fd4", "true", nil, false, build{Version: "0.4.0", Commit: "a3f2fd4", Modified: true, Go: goLine(runtime.Version())}},
		{"go build in a checkout", "", "", "", vcs, true, build{Version: "(devel)", Commit: "83eb333af0c1", Modified: true, Go: goLine("go1.26.0")}},
		{"go install module@version", "", "", "", installed, true, build{Version: "v0.4.0", Go: goLine("go1.26.1")}},
		{"no build record", "", "", "", nil, false, build{Version: "(devel)", Go: goLine(runtime.Version())}},
	}
	for _, tc := range tests {
		if got := describeBuild(tc.version, tc.commit, tc.modified, tc.bi, tc.ok); got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// buildWith builds gloved with extra go build flags into a directory of
// the test's.
func buildWith(t *testing.T, flags ...string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "gloved")
	cmd := exec.Command("go", append(append([]string{"build", "-o", bin}, flags...), ".")...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %v: %v\n%s", flags, err, out)
	}
	return bin
}

func versionOf(t *testing.T, bin string) []string {
	t.Helper()
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatalf("%s version: %v", bin, err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
}

// TestVersionThroughTheBinary: what packaging/build-deb.sh stamps is what
// `gloved version` prints; an unstamped build says what the toolchain
// recorded, the commit included when it built from a git checkout.
func TestVersionThroughTheBinary(t *testing.T) {
	t.Parallel()
	fullRunOnly(t)
	goLine := "built with " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
	stamped := buildWith(t, "-ldflags", "-X main.version=9.8.7 -X main.commit=0123456789abcdef -X main.modified=true")
	want := []string{"gloved 9.8.7", "commit 0123456789abcdef, with uncommitted changes", goLine}
	if got := versionOf(t, stamped); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("stamped: got %q, want %q", got, want)
	}
	if out, _ := exec.Command(stamped, "--version").Output(); !strings.HasPrefix(string(out), "gloved 9.8.7\n") {
		t.Errorf("--version: %q", out)
	}

	plain := buildWith(t, "-buildvcs=false")
	want = []string{"gloved (devel)", "commit unknown (built without VCS information: not from a git checkout, or with -buildvcs=false)", goLine}
	if got := versionOf(t, plain); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("-buildvcs=false: got %q, want %q", got, want)
	}

	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not in a git checkout (or no git): %v", err)
	}
	// The toolchain records VCS information only where .git is a
	// directory (cmd/go/internal/vcs), not in a worktree's checkout.
	if fi, err := os.Stat(filepath.Join(strings.TrimSpace(string(top)), ".git")); err != nil || !fi.IsDir() {
		t.Skip("a git worktree (.git is a file): go build records no VCS information here")
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	status, err := exec.Command("git", "status", "--porcelain").Output()
	if err != nil {
		t.Fatal(err)
	}
	commitLine := "commit " + strings.TrimSpace(string(head))
	if len(status) > 0 {
		commitLine += ", with uncommitted changes"
	}
	if got := versionOf(t, buildWith(t, "-buildvcs=true")); got[1] != commitLine {
		t.Errorf("-buildvcs=true: got %q, want %q", got[1], commitLine)
	}
}

func TestVersionTakesNoArguments(t *testing.T) {
	runBinary(t, 10*time.Second, "version", "extra").oneLine(t, 2, `unexpected argument "extra"`)
}
