package serialport_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/devices/emulator/emulatortest"
	"github.com/gloved/gloved/devices/serialport"
	"github.com/gloved/gloved/internal/netns"
)

// useLockDir points the package's lock files at a directory of the
// test's own for its duration.
func useLockDir(t *testing.T) string {
	dir := t.TempDir()
	old := serialport.LockDir
	serialport.LockDir = dir
	t.Cleanup(func() { serialport.LockDir = old })
	return dir
}

// comm is the kernel's name of process pid, read here without the
// package's help.
func comm(t *testing.T, pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

func openLine(t *testing.T, path string) serialport.Conn {
	t.Helper()
	c, err := serialport.Open(path, 115200, 50*time.Millisecond)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	return c
}

// lockFile returns the one LCK.. file in dir, or "".
func lockFile(t *testing.T, dir string) string {
	m, err := filepath.Glob(filepath.Join(dir, "LCK..*"))
	if err != nil || len(m) > 1 {
		t.Fatalf("lock files: %v %v", m, err)
	}
	if len(m) == 0 {
		return ""
	}
	return m[0]
}

func TestASecondOpenerIsToldWhoHoldsThePort(t *testing.T) {
	dir := useLockDir(t)
	em := emulatortest.Start(t, emulator.Opts{Sensors: 22, Right: true}, "", emulator.Hangup{})
	first := openLine(t, em.Path)

	lock := lockFile(t, dir)
	if want := "LCK.." + strings.ReplaceAll(strings.TrimPrefix(em.Path, "/dev/"), "/", "_"); filepath.Base(lock) != want {
		t.Errorf("lock file %q, want %q", lock, want)
	}
	b, err := os.ReadFile(lock)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), fmt.Sprintf("%10d\n", os.Getpid()); got != want {
		t.Errorf("lock file holds %q, want the UUCP form %q", got, want)
	}

	_, err = serialport.Open(em.Path, 115200, 50*time.Millisecond)
	var busy *serialport.InUseError
	if !errors.As(err, &busy) || !errors.Is(err, serialport.ErrInUse) {
		t.Fatalf("second open: %v, want an InUseError", err)
	}
	want := fmt.Sprintf("%s is in use by %s (pid %d): stop it or choose another port", em.Path, comm(t, os.Getpid()), os.Getpid())
	if err.Error() != want {
		t.Errorf("got %q\nwant %q", err, want)
	}

	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if l := lockFile(t, dir); l != "" {
		t.Errorf("closing the line left its lock file %s", l)
	}
	openLine(t, em.Path).Close()
}

// A lock file whose process has ended is stale: the port opens, and the
// file is this process's.
func TestAStaleLockFileIsTakenOver(t *testing.T) {
	dir := useLockDir(t)
	em := emulatortest.Start(t, emulator.Opts{Sensors: 22, Right: true}, "", emulator.Hangup{})
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "LCK.."+strings.ReplaceAll(strings.TrimPrefix(em.Path, "/dev/"), "/", "_"))
	if err := os.WriteFile(name, fmt.Appendf(nil, "%10d\n", gone.Process.Pid), 0o644); err != nil {
		t.Fatal(err)
	}
	c := openLine(t, em.Path)
	defer c.Close()
	b, _ := os.ReadFile(name)
	if pid, _ := strconv.Atoi(strings.TrimSpace(string(b))); pid != os.Getpid() {
		t.Errorf("lock file names pid %d, want this process's %d", pid, os.Getpid())
	}
}

// A program that only writes the lock file (minicom, lockdev) holds the
// port too, and is named with the file.
func TestALockFileOfALiveProcessHoldsThePort(t *testing.T) {
	dir := useLockDir(t)
	em := emulatortest.Start(t, emulator.Opts{Sensors: 22, Right: true}, "", emulator.Hangup{})
	other := exec.Command("sleep", "30")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { other.Process.Kill(); other.Wait() }()
	name := filepath.Join(dir, "LCK.."+strings.ReplaceAll(strings.TrimPrefix(em.Path, "/dev/"), "/", "_"))
	if err := os.WriteFile(name, fmt.Appendf(nil, "%10d\n", other.Process.Pid), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := serialport.Open(em.Path, 115200, 50*time.Millisecond)
	want := fmt.Sprintf("%s is in use by sleep (pid %d), by its lock file %s: stop it or choose another port", em.Path, other.Process.Pid, name)
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	if b, _ := os.ReadFile(name); strings.TrimSpace(string(b)) != strconv.Itoa(other.Process.Pid) {
		t.Errorf("the other program's lock file was overwritten: %q", b)
	}
}

// Without a writable lock directory the port is still this process's
// alone (the flock), and the holder is found in /proc.
func TestWithoutALockDirectoryThePortIsStillExclusive(t *testing.T) {
	old := serialport.LockDir
	serialport.LockDir = filepath.Join(t.TempDir(), "missing")
	defer func() { serialport.LockDir = old }()
	em := emulatortest.Start(t, emulator.Opts{Sensors: 22, Right: true}, "", emulator.Hangup{})
	c := openLine(t, em.Path)
	defer c.Close()
	_, err := serialport.Open(em.Path, 115200, 50*time.Millisecond)
	want := fmt.Sprintf("%s is in use by %s (pid %d): stop it or choose another port", em.Path, comm(t, os.Getpid()), os.Getpid())
	if !errors.Is(err, serialport.ErrInUse) || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// While the line is open, TIOCEXCL keeps every other opener but root off
// it, whether or not it locks: a terminal program run by a user gets
// EBUSY. Once closed, the same user opens it.
func TestAnOpenLineRefusesOtherOpenersOfTheTTY(t *testing.T) {
	useLockDir(t)
	setpriv, err := exec.LookPath("setpriv")
	if err != nil || os.Geteuid() != 0 {
		netns.Skipf(t, "needs root and setpriv (util-linux) to try the port as another user")
	}
	em := emulatortest.Start(t, emulator.Opts{Sensors: 22, Right: true}, "", emulator.Hangup{})
	if err := os.Chmod(em.Path, 0o666); err != nil {
		t.Fatal(err)
	}
	asNobody := func() error {
		out, err := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--",
			"sh", "-c", "exec 3<>"+em.Path).CombinedOutput()
		if err != nil {
			return fmt.Errorf("%v: %s", err, out)
		}
		return nil
	}
	if err := asNobody(); err != nil {
		t.Fatalf("before gloved opens it, nobody cannot open the line: %v", err)
	}
	c := openLine(t, em.Path)
	if err := asNobody(); err == nil || !strings.Contains(err.Error(), "busy") {
		t.Errorf("while open, another user's open: %v, want EBUSY", err)
	}
	c.Close()
	if err := asNobody(); err != nil {
		t.Errorf("after close, another user's open: %v (TIOCEXCL left on the tty)", err)
	}
}

// The lock directory is everyone's: a pipe, a directory or a symlink
// where a lock file goes neither blocks an opener nor names a holder.
func TestALockFileThatIsNoFileIsIgnored(t *testing.T) {
	for _, odd := range []struct {
		what string
		at   func(string) error
	}{
		{"a pipe", func(p string) error { return syscall.Mkfifo(p, 0o666) }},
		{"a directory", func(p string) error { return os.Mkdir(p, 0o755) }},
		{"a symlink to a live process's lock", func(p string) error {
			target := p + ".target"
			if err := os.WriteFile(target, fmt.Appendf(nil, "%10d\n", os.Getppid()), 0o644); err != nil {
				return err
			}
			return os.Symlink(target, p)
		}},
	} {
		dir := useLockDir(t)
		em := emulatortest.Start(t, emulator.Opts{Sensors: 22, Right: true}, "", emulator.Hangup{})
		name := filepath.Join(dir, "LCK.."+strings.ReplaceAll(strings.TrimPrefix(em.Path, "/dev/"), "/", "_"))
		if err := odd.at(name); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			if err := serialport.Free(em.Path); err != nil {
				done <- err
				return
			}
			c, err := serialport.Open(em.Path, 115200, 50*time.Millisecond)
			if err == nil {
				c.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("%s as the lock file: %v", odd.what, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s as the lock file: the open is still waiting after 10 s", odd.what)
		}
	}
}
