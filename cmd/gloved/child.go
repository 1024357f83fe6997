package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// child is a gloved process started by another command (bench latency
// runs the emulator and the daemon so): its stderr is kept for the error
// that names why it failed.
type child struct {
	name string
	cmd  *exec.Cmd
	errs syncBuffer
	done chan struct{}
	err  error // valid once done is closed
	once sync.Once
}

// startChild starts exe with args.
func startChild(ctx context.Context, name, exe string, args ...string) (*child, error) {
	c := &child{name: name, done: make(chan struct{})}
	c.cmd = exec.CommandContext(ctx, exe, args...)
	c.cmd.Stderr = &c.errs
	c.cmd.Cancel = func() error { return c.cmd.Process.Signal(syscall.SIGTERM) }
	c.cmd.WaitDelay = 5 * time.Second
	// Should this process be killed outright, the child ends too.
	c.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	if err := c.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the %s (%s %s): %w", name, exe, strings.Join(args, " "), err)
	}
	go func() {
		c.err = c.cmd.Wait()
		close(c.done)
	}()
	return c, nil
}

// exited returns an error naming the child's failure once it has ended,
// nil while it runs.
func (c *child) exited() error {
	select {
	case <-c.done:
		return fmt.Errorf("the %s exited (%v)%s", c.name, c.err, c.tail())
	default:
		return nil
	}
}

// waitFor waits until path exists (the child made it) or the child ends.
func (c *child) waitFor(path string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		if _, err := os.Stat(path); err == nil {
			return nil
		}
		if err := c.exited(); err != nil {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the %s did not make %s within %v%s", c.name, path, limit, c.tail())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// stop asks the child to end (SIGTERM) and waits for it. It is an error
// if the child failed; ending on the signal is not.
func (c *child) stop() error {
	c.once.Do(func() {
		select {
		case <-c.done:
		default:
			c.cmd.Process.Signal(syscall.SIGTERM)
		}
	})
	<-c.done
	var exit *exec.ExitError
	if c.err == nil || errors.As(c.err, &exit) && exit.ExitCode() == -1 { // -1: ended by the signal
		return nil
	}
	return fmt.Errorf("the %s failed (%v)%s", c.name, c.err, c.tail())
}

// tail returns the last line the child wrote to stderr, as ": LINE"
// (without the child's own "gloved: ").
func (c *child) tail() string {
	lines := strings.Split(strings.TrimSpace(c.errs.String()), "\n")
	if last := strings.TrimPrefix(strings.TrimSpace(lines[len(lines)-1]), "gloved: "); last != "" {
		return ": " + last
	}
	return ""
}

// syncBuffer is a bytes.Buffer safe for one goroutine writing (exec's
// copying, a command under test) while another reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *syncBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
