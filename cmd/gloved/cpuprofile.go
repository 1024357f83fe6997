package main

import (
	"fmt"
	"runtime/pprof"

	"github.com/gloved/gloved/internal/userfile"
)

// startCPUProfile starts a CPU profile written to path whole or not at
// all (userfile.Output), and returns what stops it: given the run's
// error, it puts the profile in place only if the run succeeded, and
// otherwise leaves a file at path as it was; it returns the run's error,
// or the profile's.
func startCPUProfile(path string) (stop func(runErr error) error, err error) {
	if err := ownKindOnly("--cpuprofile", path, profileOutput); err != nil {
		return nil, err
	}
	o, err := userfile.CreateOutput(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(o); err != nil {
		return nil, o.Abort(fmt.Errorf("--cpuprofile %s: %w", userfile.Name(path), err))
	}
	return func(runErr error) error {
		pprof.StopCPUProfile()
		if runErr != nil {
			return o.Abort(runErr)
		}
		if err := o.Commit(); err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		return nil
	}, nil
}
