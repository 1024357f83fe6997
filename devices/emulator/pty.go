package emulator

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
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
		err = e.Serve(sctx, p.Master)
		cancel()
		if link != "" {
			os.Remove(link)
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

// relink points link at target through a temporary name and a rename.
func relink(target, link string) error {
	tmp := filepath.Join(filepath.Dir(link), "."+filepath.Base(link)+".tmp")
	os.Remove(tmp)
	if err := os.Symlink(target, tmp); err != nil {
		return fmt.Errorf("emulator: link %s: %w", link, err)
	}
	if err := os.Rename(tmp, link); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("emulator: link %s: %w", link, err)
	}
	return nil
}

var _ io.ReadWriter = (*os.File)(nil)
