package animationtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/gloved/gloved/internal/netns"
)

// InstallCommand installs the validator Khronos runs, from the module's
// root.
const InstallCommand = "npm ci --prefix animation/testdata/khronos"

// Issue is one finding of the validator.
type Issue struct {
	Code     string `json:"code"`
	Message  string `json:"message"`
	Severity int    `json:"severity"` // 0 error, 1 warning, 2 information, 3 hint
	Pointer  string `json:"pointer"`
}

// Report is the part of the validator's report the tests read.
type Report struct {
	Issues struct {
		NumErrors   int     `json:"numErrors"`
		NumWarnings int     `json:"numWarnings"`
		NumInfos    int     `json:"numInfos"`
		NumHints    int     `json:"numHints"`
		Messages    []Issue `json:"messages"`
	} `json:"issues"`
	Info struct {
		Generator      string `json:"generator"`
		AnimationCount int    `json:"animationCount"`
	} `json:"info"`
}

// script is the node script that runs the validator, beside its
// package.json and node_modules.
func script() string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..", "testdata", "khronos", "validate.js")
}

// Installed returns node's path and the validator's script, or why the
// validator cannot run.
func Installed() (node, js string, err error) {
	if node, err = exec.LookPath("node"); err != nil {
		return "", "", fmt.Errorf("the Khronos glTF-Validator needs node, which is not on PATH (then: %s)", InstallCommand)
	}
	js = script()
	if _, err := os.Stat(filepath.Join(filepath.Dir(js), "node_modules", "gltf-validator", "package.json")); err != nil {
		return "", "", fmt.Errorf("the Khronos glTF-Validator is not installed: run %s", InstallCommand)
	}
	return node, js, nil
}

// RequireKhronos skips t, saying how to install it, unless the validator
// can run: for a test that checks nothing else, before it does any work.
// Where GLOVED_REQUIRE_PEERS=1 (CI) a missing validator fails t instead.
func RequireKhronos(t testing.TB) {
	t.Helper()
	if _, _, err := Installed(); err != nil {
		netns.Skipf(t, "%v", err)
	}
}

// Khronos runs the Khronos glTF-Validator on the file at path and fails
// t on every error and warning it reports (informations and hints are
// logged). Without node, or without the validator installed, it skips t
// saying how to install it (fails it where GLOVED_REQUIRE_PEERS=1).
func Khronos(t testing.TB, path string) Report {
	t.Helper()
	var rep Report
	node, js, err := Installed()
	if err != nil {
		netns.Skipf(t, "%v", err)
		return rep
	}
	var out, errb bytes.Buffer
	cmd := exec.Command(node, js, path)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("the Khronos glTF-Validator on %s: %v\n%s", path, err, errb.String())
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("the Khronos glTF-Validator's report on %s: %v", path, err)
	}
	for _, m := range rep.Issues.Messages {
		if m.Severity <= 1 {
			t.Errorf("Khronos glTF-Validator, %s: %s %s at %s", filepath.Base(path), m.Code, m.Message, m.Pointer)
		} else {
			t.Logf("Khronos glTF-Validator, %s (severity %d): %s %s at %s", filepath.Base(path), m.Severity, m.Code, m.Message, m.Pointer)
		}
	}
	if n := rep.Issues.NumErrors + rep.Issues.NumWarnings; n > 0 && len(rep.Issues.Messages) == 0 {
		t.Errorf("Khronos glTF-Validator, %s: %d errors and warnings", filepath.Base(path), n)
	}
	return rep
}
