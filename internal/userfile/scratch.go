package userfile

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// A scratch file is named .NAME.partial-PID-RANDOM beside the file NAME
// it becomes, PID the process writing it, which holds flock(2) on it
// until it closes it. A process killed outright (SIGKILL, the OOM killer,
// a power cut) cannot remove its own; the next Output for the same path
// removes each one whose writer is gone: no process of its PID, and no
// lock on it (the kernel drops a dead process's locks, and a writer in
// another PID namespace still holds one). Only this form is removed: a
// file of another name, or another process's live scratch file, is never
// touched.

// scratchPattern is the os.CreateTemp pattern of this process's scratch
// file for path.
func scratchPattern(path string) string {
	return "." + filepath.Base(path) + ".partial-" + strconv.Itoa(os.Getpid()) + "-*"
}

// lockScratch takes flock(2) on f, held until f is closed, so that a
// process sweeping stale scratch files sees that it is in use. (Fd is
// harmless here: a regular file or a directory is never in Go's poller.)
func lockScratch(f *os.File) error {
	return unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
}

// sweepStale removes the scratch files for path that a process gone
// without a trace left (own is this process's, kept).
func sweepStale(path, own string) { sweep(path, own, false) }

// sweep removes the scratch files (dirs: directories, and all they hold)
// for path that a process gone without a trace left, own kept.
func sweep(path, own string, dirs bool) {
	prefix := "." + filepath.Base(path) + ".partial-"
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		pid, ok := scratchWriter(name, prefix)
		kind := e.Type().IsRegular()
		if dirs {
			kind = e.IsDir()
		}
		if !ok || !kind || pid == os.Getpid() || processLives(pid) {
			continue
		}
		p := filepath.Join(filepath.Dir(path), name)
		if p == own {
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		if lockScratch(f) == nil {
			if dirs {
				os.RemoveAll(p)
			} else {
				os.Remove(p)
			}
		}
		f.Close()
	}
}

// ScratchDir is a scratch directory: files written into it are moved to
// where they belong once all are written, so that a writer that fails
// leaves nothing where they belong. It is named like a scratch file, for
// NAME in the directory it is made in, and locked the same way, so that
// one a process killed outright left is removed by the next made for the
// same NAME there.
type ScratchDir struct {
	Path string
	lock *os.File
}

// CreateScratchDir makes a scratch directory for name in dir, removing
// those a writer gone without a trace left.
func CreateScratchDir(dir, name string) (*ScratchDir, error) {
	p, err := os.MkdirTemp(dir, scratchPattern(filepath.Join(dir, name)))
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if err == nil {
		err = lockScratch(f)
	}
	if err != nil {
		if f != nil {
			f.Close()
		}
		os.RemoveAll(p)
		return nil, err
	}
	sweep(filepath.Join(dir, name), p, true)
	return &ScratchDir{Path: p, lock: f}, nil
}

// Remove removes the scratch directory and all it still holds.
func (s *ScratchDir) Remove() error {
	err := os.RemoveAll(s.Path)
	s.lock.Close()
	return err
}

// scratchWriter is the PID in a scratch file's name, prefix PID-RANDOM.
func scratchWriter(name, prefix string) (int, bool) {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return 0, false
	}
	pid, random, ok := strings.Cut(rest, "-")
	if !ok || !digits(random) || !digits(pid) {
		return 0, false
	}
	n, err := strconv.Atoi(pid)
	return n, err == nil && n > 0
}

// digits reports whether s is one or more decimal digits.
func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// processLives reports whether a process pid may be running: any answer
// but "no such process" (EPERM: another user's) counts as running.
func processLives(pid int) bool {
	return !errors.Is(unix.Kill(pid, 0), unix.ESRCH)
}
