package emulator

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/gloved/gloved/internal/userfile"
)

// PTY is a pseudo-terminal pair: the emulator holds the master, a driver
// opens Path (the slave) like any serial device.
type PTY struct {
	Master *os.File
	slave  *os.File
	Path   string
}

// OpenPTY creates a pseudo-terminal in raw mode, so that no byte is echoed
// or translated before the driver configures the line itself.
func OpenPTY() (*PTY, error) {
	m, s, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("emulator: open pty: %w", err)
	}
	t, err := unix.IoctlGetTermios(int(s.Fd()), unix.TCGETS)
	if err == nil {
		// cfmakeraw
		t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
		t.Oflag &^= unix.OPOST
		t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
		t.Cflag &^= unix.CSIZE | unix.PARENB
		t.Cflag |= unix.CS8
		err = unix.IoctlSetTermios(int(s.Fd()), unix.TCSETS, t)
	}
	if err != nil {
		m.Close()
		s.Close()
		return nil, fmt.Errorf("emulator: pty raw mode: %w", err)
	}
	if m, err = pollable(m); err != nil {
		s.Close()
		return nil, fmt.Errorf("emulator: pty: %w", err)
	}
	return &PTY{Master: m, slave: s, Path: s.Name()}, nil
}

// pollable returns f non-blocking, in Go's poller, and closes f. creack/pty
// leaves the master blocking; Close cannot interrupt a Read blocked in a
// blocking file and defers the close until the Read returns, so the pty
// would hang up only when its driver next wrote, not when Run closes it.
func pollable(f *os.File) (*os.File, error) {
	name := f.Name()
	fd, err := unix.Dup(int(f.Fd()))
	f.Close()
	if err != nil {
		return nil, err
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), name), nil
}

// unread returns how many bytes the master sent that the slave side has
// not read: a hang-up discards them.
func (p *PTY) unread() int {
	n, err := unix.IoctlGetInt(int(p.slave.Fd()), unix.TIOCINQ)
	if err != nil {
		return 0
	}
	return n
}

// Close closes both ends: a driver reading the slave sees the line hang up.
func (p *PTY) Close() error {
	p.slave.Close()
	return p.Master.Close()
}

// Hangup describes a simulated disconnection of the emulated port.
type Hangup struct {
	At, For time.Duration // 0 For: never
}

// Unit is an emulated glove Run serves: an Emulator (a CyberGlove
// unit) or an OpenGloves glove.
type Unit interface {
	Serve(ctx context.Context, conn io.ReadWriter) error
	epoch() time.Time // when its clock started
	lose(n int)       // count bytes a hang-up discarded
}

// Run serves e on a pseudo-terminal until ctx ends. It reports each
// slave path on ready (and points the symlink link at it, if link is set,
// replacing it atomically). With a hangup it closes the pty at h.At, waits
// h.For and serves a new one, as a USB adapter unplugged and replugged
// would appear. The link is removed before a pty closes, as udev removes
// an unplugged adapter's: the closed pty's number is free for the next
// pty anyone opens, and a driver reopening the port through a link left
// behind would open that one, another program's.
func Run(ctx context.Context, e Unit, link string, h Hangup, ready func(path string)) error {
	hungUp := false
	for {
		p, err := OpenPTY()
		if err != nil {
			return err
		}
		if link != "" {
			if err := relink(p.Path, link); err != nil {
				p.Close()
				return err
			}
		}
		if ready != nil {
			ready(p.Path)
		}
		sctx, cancel := context.WithCancel(ctx)
		if h.For > 0 && !hungUp {
			at := time.Until(e.epoch().Add(h.At))
			go func() {
				select {
				case <-time.After(at):
					cancel()
				case <-sctx.Done():
				}
			}()
		}
		// A write to a pty nobody reads waits for a reader once its
		// buffer is full, and Serve sees ctx only between writes: the
		// deadline ends that wait when ctx does, so a signal stops the
		// emulator (and removes its link) at once.
		unblock := context.AfterFunc(sctx, func() { p.Master.SetDeadline(time.Now()) })
		err = e.Serve(sctx, p.Master)
		cancel()
		unblock()
		if link != "" {
			unlink(p.Path, link)
		}
		e.lose(p.unread())
		p.Close()
		if ctx.Err() != nil {
			return nil
		}
		if err != nil && !hungUp && h.For == 0 {
			return fmt.Errorf("emulator: emulator: %w", err)
		}
		if h.For > 0 && !hungUp {
			hungUp = true
			select {
			case <-time.After(h.For):
			case <-ctx.Done():
				return nil
			}
		}
	}
}

// ErrLinkTaken is what Run and CheckLink return for a link path that
// exists and is not an emulator's link: the emulator replaces and
// removes only its own links, never a user's file or udev's device link.
var ErrLinkTaken = errors.New("exists and is not an emulator's link")

// CheckLink returns an error wrapping ErrLinkTaken unless link is free
// for Run: absent, or a stale link of an emulator (one to a pty that no
// longer exists, left by an emulator that crashed), which Run replaces.
func CheckLink(link string) error {
	if _, err := os.Lstat(link); errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("emulator: link %s: %w", userfile.Name(link), err)
	}
	if !staleLink(link) {
		return fmt.Errorf("emulator: link %s %w", userfile.Name(link), ErrLinkTaken)
	}
	return nil
}

// staleLink reports whether link is a symlink to a pty slave
// (/dev/pts/N) that no longer exists: an emulator's link its crash left
// behind. A link to a live pty is some running program's.
func staleLink(link string) bool {
	target, err := os.Readlink(link)
	if err != nil || !isPTSPath(target) {
		return false
	}
	_, err = os.Stat(target)
	return errors.Is(err, fs.ErrNotExist)
}

// isPTSPath reports whether path names a pty slave, /dev/pts/N.
func isPTSPath(path string) bool {
	n, ok := strings.CutPrefix(path, "/dev/pts/")
	if !ok || n == "" {
		return false
	}
	for _, c := range n {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// relink points link at target. An absent link is made by an exclusive
// symlink; a stale emulator's link is replaced atomically, through a
// temporary name the emulator creates exclusively (a symlink fails on
// any existing name), so that no existing file is ever replaced or
// removed but that stale link.
func relink(target, link string) error {
	if err := CheckLink(link); err != nil {
		return err
	}
	err := os.Symlink(target, link)
	if !errors.Is(err, fs.ErrExist) {
		if err != nil {
			return fmt.Errorf("emulator: link %s: %w", userfile.Name(link), err)
		}
		return nil
	}
	tmp, err := tempLink(target, link)
	if err != nil {
		return err
	}
	if !staleLink(link) { // made meanwhile by someone else: leave it
		os.Remove(tmp)
		return fmt.Errorf("emulator: link %s %w", userfile.Name(link), ErrLinkTaken)
	}
	if err := os.Rename(tmp, link); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("emulator: link %s: %w", userfile.Name(link), err)
	}
	return nil
}

// tempLink makes a symlink to target under a fresh name beside link and
// returns the name. os.Symlink fails if the name exists, so the name is
// the emulator's own: another is tried, never an existing file removed.
func tempLink(target, link string) (string, error) {
	dir, base := filepath.Dir(link), filepath.Base(link)
	for range 100 {
		tmp := filepath.Join(dir, fmt.Sprintf(".%s.%d.tmp", base, rand.Uint64()))
		err := os.Symlink(target, tmp)
		if err == nil {
			return tmp, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("emulator: link %s: %w", userfile.Name(link), err)
		}
	}
	return "", fmt.Errorf("emulator: link %s: no free temporary name beside it", userfile.Name(link))
}

// unlink removes link if it still points at target, this emulator's
// pty: a link someone replaced meanwhile is theirs.
func unlink(target, link string) {
	if got, err := os.Readlink(link); err == nil && got == target {
		os.Remove(link)
	}
}

var _ io.ReadWriter = (*os.File)(nil)
