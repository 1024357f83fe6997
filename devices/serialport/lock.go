package serialport

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// ErrInUse is a port another process holds: a gloved daemon, `gloved
// record`, or a terminal program. Retrying does not help until it lets go.
var ErrInUse = errors.New("the port is in use")

// InUseError names the port and, when it can be told, the process that
// holds it.
type InUseError struct {
	Port   string // as the user gave it
	Holder string // "gloved (pid 1234)", or "another process"
}

func (e *InUseError) Error() string {
	return fmt.Sprintf("%s is in use by %s: stop it or choose another port", e.Port, e.Holder)
}

func (e *InUseError) Unwrap() error { return ErrInUse }

// LockDir is where a port's lock file names its holder: the Filesystem
// Hierarchy Standard's /var/lock (/run/lock on Debian, writable by
// everyone, sticky), as minicom, picocom and lockdev use it. A variable
// so that tests can use their own.
var LockDir = "/run/lock"

// claim is what holds a port for one process: the line's own descriptor,
// with flock(2) on it (the kernel lets go when the process dies, so a
// crashed holder leaves nothing stale), TIOCEXCL on the tty (the kernel
// refuses any later open but root's), and the UUCP-style lock file that
// names the holder to other programs and to the next gloved. The
// descriptor stays non-blocking and in Go's poller (it is never asked
// for its Fd, which would make it blocking): held writes the line
// through it, so that no write waits on a line whose other end reads
// nothing for longer than its deadline, and closing it wakes one that
// waits.
type claim struct {
	f    *os.File
	lock string // the lock file written, or "" when LockDir was not writable
}

// claimPort takes the port at path for this process, or says who has it.
// The order matters: the flock decides between gloved processes
// atomically; the lock file is only read (to name a holder, and to
// respect a terminal program that locks the UUCP way) and then written.
func claimPort(path string) (*claim, error) {
	f, err := os.OpenFile(path, os.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, unix.EBUSY) { // another process set TIOCEXCL
			return nil, inUse(path)
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // "open PATH" is said once, here
		}
		return nil, fmt.Errorf("serialport: open %s: %w%s", path, err, openHint(err))
	}
	name := lockName(path)
	if err := control(f, func(fd int) error { return unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB) }); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, inUse(path)
		}
		return nil, fmt.Errorf("serialport: lock %s: %w", path, err)
	}
	if pid, ok := lockHolder(name); ok && pid != os.Getpid() {
		f.Close()
		// A program that locks the UUCP way only (minicom), or a stale
		// file whose process id was reused: name the file too.
		return nil, &InUseError{Port: path, Holder: processName(pid) + ", by its lock file " + name}
	}
	c := &claim{f: f}
	if writeLock(name) == nil {
		c.lock = name
	}
	return c, nil
}

// exclusive sets TIOCEXCL on the tty, once the line is open: no other
// process but root's may open it until the last descriptor closes.
func (c *claim) exclusive() error {
	return control(c.f, func(fd int) error { return unix.IoctlSetInt(fd, unix.TIOCEXCL, 0) })
}

// control runs op on f's descriptor without taking it out of the poller
// (as f.Fd would).
func control(f *os.File, op func(fd int) error) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var operr error
	if err := rc.Control(func(fd uintptr) { operr = op(int(fd)) }); err != nil {
		return err
	}
	return operr
}

// release lets the port go: TIOCEXCL (a pseudo-terminal keeps it after its
// last close while its other side is open, which would shut out the next
// opener who is not root), the lock file if it is still this process's,
// then the flock with the descriptor.
func (c *claim) release() {
	control(c.f, func(fd int) error { return unix.IoctlSetInt(fd, unix.TIOCNXCL, 0) })
	if c.lock != "" {
		if pid, ok := lockHolder(c.lock); ok && pid == os.Getpid() {
			os.Remove(c.lock)
		}
	}
	c.f.Close()
}

// lockName is the lock file of the port at path: LCK..ttyUSB0 for
// /dev/ttyUSB0 (symlinks such as /dev/cyberglove followed), LCK..pts_3 for
// /dev/pts/3, as lockdev names them.
func lockName(path string) string {
	if p, err := filepath.EvalSymlinks(path); err == nil {
		path = p
	}
	rel, err := filepath.Rel("/dev", path)
	if err != nil || strings.HasPrefix(rel, "..") {
		rel = filepath.Base(path)
	}
	return filepath.Join(LockDir, "LCK.."+strings.ReplaceAll(rel, "/", "_"))
}

// lockHolder reads a lock file's process id: ten ASCII digits and a
// newline in the UUCP form (any spacing is accepted). ok is false when
// there is no lock file, or its process is gone (a stale file). The lock
// directory is everyone's: the file is opened without following a
// symlink and without waiting on a pipe, and only a regular file is read.
func lockHolder(name string) (pid int, ok bool) {
	b := make([]byte, 64)
	f, err := os.OpenFile(name, os.O_RDONLY|unix.O_NONBLOCK|unix.O_NOFOLLOW|unix.O_NOCTTY, 0)
	if err != nil {
		return 0, false
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return 0, false
	}
	n, _ := f.Read(b)
	f.Close()
	pid, err = strconv.Atoi(strings.TrimSpace(string(b[:n])))
	if err != nil || pid <= 0 {
		return 0, false
	}
	if err := unix.Kill(pid, 0); err != nil && !errors.Is(err, unix.EPERM) {
		return 0, false // ESRCH: no such process
	}
	return pid, true
}

// writeLock writes this process's id into the lock file, replacing a
// stale one. The caller holds the port's flock, so no other gloved writes
// it meanwhile.
func writeLock(name string) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), ".gloved-lock-*")
	if err != nil {
		return err
	}
	_, werr := fmt.Fprintf(tmp, "%10d\n", os.Getpid())
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), 0o644)); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// inUse is the error for the port at path, which another process holds:
// it names the holder, the lock file's or else one found holding the
// device open in /proc (only this user's processes are visible there, or
// all of them to root).
func inUse(path string) *InUseError {
	return &InUseError{Port: path, Holder: holder(path)}
}

func holder(path string) string {
	if pid, ok := lockHolder(lockName(path)); ok {
		return processName(pid)
	}
	var st unix.Stat_t
	if unix.Stat(path, &st) == nil {
		if pid, ok := procHolder(st.Rdev); ok {
			return processName(pid)
		}
	}
	return "another process"
}

// procHolder finds a process with the character device rdev open (the
// caller has closed its own descriptor of it).
func procHolder(rdev uint64) (int, bool) {
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return 0, false
	}
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		fds, err := os.ReadDir(filepath.Join("/proc", p.Name(), "fd"))
		if err != nil {
			continue // another user's, or gone
		}
		for _, fd := range fds {
			var st unix.Stat_t
			if unix.Stat(filepath.Join("/proc", p.Name(), "fd", fd.Name()), &st) == nil &&
				st.Mode&unix.S_IFMT == unix.S_IFCHR && st.Rdev == rdev {
				return pid, true
			}
		}
	}
	return 0, false
}

// processName says "gloved (pid 1234)", or "pid 1234" when the process's
// name cannot be read.
func processName(pid int) string {
	b, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "comm"))
	if name := strings.TrimSpace(string(b)); name != "" {
		return fmt.Sprintf("%s (pid %d)", name, pid)
	}
	return fmt.Sprintf("pid %d", pid)
}

// Free returns an *InUseError if the port at path has a lock file naming
// another live process, and nil otherwise: a daemon refuses a held port
// before it starts instead of once its glove's reader opens it. It only
// reads the lock file: opening a line raises its DTR, which resets some
// boards. Open is what enforces the claim.
func Free(path string) error {
	if pid, ok := lockHolder(lockName(path)); ok && pid != os.Getpid() {
		return &InUseError{Port: path, Holder: processName(pid)}
	}
	return nil
}
