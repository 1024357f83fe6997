// Command testrun runs go test and ends with one line naming every test
// that was skipped, and why.
//
// go test ./... prints only "ok" for a package whose tests passed, so the
// tests it skipped, for want of Chromium, avahi, root or a raw socket,
// pass unseen unless -v is given. testrun runs go test -json with the same
// arguments, prints what go test would have printed without -v (one line a
// package, and the whole output of every test that failed), then one line
// of the skipped tests grouped by the reason each gave, which says what to
// install. Its exit status is go test's.
//
//	go run ./internal/testrun            # go test ./...
//	go run ./internal/testrun -race ./cab/...
package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"syscall"
)

func main() {
	os.Exit(run("", os.Args[1:], os.Stdout, os.Stderr))
}

// run runs go test -json with args (./... when they name no package) in
// dir ("": this one) and returns the exit status to end with.
func run(dir string, args []string, stdout, stderr io.Writer) int {
	cmd := exec.Command("go", append([]string{"test", "-json"}, withPackages(args)...)...)
	cmd.Dir = dir
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintf(stderr, "testrun: %v\n", err)
		return 2
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "testrun: %v (is the go command on PATH?)\n", err)
		return 2
	}
	// Ctrl-C reaches go test too, in the same process group: testrun
	// waits for it to stop and still reports what ran.
	signal.Ignore(syscall.SIGINT)
	r := newReport(stdout, slices.ContainsFunc(args, isVerbose))
	if err := r.read(out); err != nil {
		fmt.Fprintf(stderr, "testrun: reading go test -json: %v\n", err)
	}
	waitErr := cmd.Wait()
	r.summary()
	if waitErr != nil {
		if exit, ok := waitErr.(*exec.ExitError); ok && exit.ExitCode() > 0 {
			return exit.ExitCode()
		}
		fmt.Fprintf(stderr, "testrun: go test: %v\n", waitErr)
		return 2
	}
	return 0
}

// withPackages returns args with ./... added after the flags when no
// argument names a package (every flag of go test that takes a value is
// written -flag=value or is one of valueFlags).
func withPackages(args []string) []string {
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "-args" {
			break
		}
		if a == "" || a[0] != '-' || a == "-" {
			return args
		}
		if valueFlags[trimDashes(a)] {
			i++
		}
	}
	i = min(i, len(args))
	return slices.Concat(args[:i], []string{"./..."}, args[i:])
}

// valueFlags are go test's flags written with their value as the next
// argument ("-run TestX").
var valueFlags = map[string]bool{
	"run": true, "skip": true, "bench": true, "benchtime": true, "count": true,
	"cpu": true, "parallel": true, "timeout": true, "tags": true, "p": true,
	"coverprofile": true, "covermode": true, "coverpkg": true, "cpuprofile": true,
	"memprofile": true, "blockprofile": true, "mutexprofile": true, "trace": true,
	"outputdir": true, "o": true, "fuzz": true, "fuzztime": true, "fuzzminimizetime": true,
	"shuffle": true, "vet": true, "exec": true, "ldflags": true, "gcflags": true,
	"mod": true, "modfile": true, "overlay": true, "pkgdir": true, "toolexec": true,
}

// isVerbose reports whether a is go test's -v.
func isVerbose(a string) bool {
	switch trimDashes(a) {
	case "v", "v=true", "test.v", "test.v=true":
		return true
	}
	return false
}

func trimDashes(a string) string {
	for len(a) > 0 && a[0] == '-' {
		a = a[1:]
	}
	return a
}
