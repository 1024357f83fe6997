package serialport

import (
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// ErrHung is a probe that did not end within its limit: a write or a read
// on the port blocked (a line held by flow control, a stuck driver).
var ErrHung = errors.New("the port did not answer the driver in time (it hung)")

// Identify asks what is on an open line, answering within reply per
// query, and says it in a few words ("CyberGlove (22 sensors, right)"); an
// error wrapping ErrNoReply means nothing answered. It must change no
// setting of the device and start nothing. A driver that can be probed
// gives one (the CyberGlove's sends ^C, then ?S ?G ?R).
type Identify func(c Conn, reply time.Duration) (string, error)

// ProbeOpts bound a probe.
type ProbeOpts struct {
	Baud  int           // the glove's: 115200 on current units
	Reply time.Duration // each query's reply timeout
}

// DefaultProbeOpts are the baud rate of a current unit and a reply
// timeout well above a unit's turnaround.
var DefaultProbeOpts = ProbeOpts{Baud: 115200, Reply: 300 * time.Millisecond}

// Limit is the longest a probe takes: an identify that drains the line
// (at most a second of data) and asks three queries, and a second to open
// and close the line.
func (o ProbeOpts) Limit() time.Duration { return 2*time.Second + 3*o.Reply }

// Probe opens the port at path at o.Baud, asks identify what is on it
// and returns what it said; an error wrapping ErrNoReply means nothing
// answered. The line's settings (baud rate, raw mode, timeouts) are put
// back as they were before it returns, and it returns within o.Limit()
// even if the port hangs (ErrHung; the stuck call is abandoned, and puts the settings back
// only if it ever returns).
func Probe(path string, o ProbeOpts, identify Identify) (string, error) {
	return within(o.Limit(), path, func() (string, error) { return probe(path, o, identify) })
}

// within returns f's result, or ErrHung once limit has passed without
// one (leaving f to finish, or not, on its own).
func within(limit time.Duration, path string, f func() (string, error)) (string, error) {
	type result struct {
		u   string
		err error
	}
	done := make(chan result, 1)
	go func() {
		u, err := f()
		done <- result{u, err}
	}()
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case r := <-done:
		return r.u, r.err
	case <-t.C:
		return "", fmt.Errorf("serialport: %s: %w", path, ErrHung)
	}
}

func probe(path string, o ProbeOpts, identify Identify) (string, error) {
	// Hold the line open while the driver uses it, to read its settings
	// before and put them back after; O_NONBLOCK so that a port with no
	// carrier does not block the open.
	keep, err := os.OpenFile(path, os.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, unix.EBUSY) {
			return "", inUse(path)
		}
		return "", fmt.Errorf("serialport: %w", err)
	}
	defer keep.Close()
	fd := int(keep.Fd())
	saved, err := unix.IoctlGetTermios(fd, unix.TCGETS2)
	if err != nil {
		return "", fmt.Errorf("serialport: %s is not a terminal: %w", path, err)
	}
	port, err := Open(path, o.Baud, 100*time.Millisecond)
	if err != nil {
		return "", err
	}
	u, err := identify(port, o.Reply)
	port.Close()
	if rerr := unix.IoctlSetTermios(fd, unix.TCSETS2, saved); rerr != nil && err == nil {
		err = fmt.Errorf("serialport: %s: restoring the line's settings: %w", path, rerr)
	}
	if err != nil {
		return "", fmt.Errorf("serialport: %s: %w", path, err)
	}
	return u, nil
}
