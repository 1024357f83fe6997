package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/gloved/gloved/access"
	"github.com/gloved/gloved/view"
)

// showTimeline gives the live page of an offline command (replay --view,
// contacts --view), served since before its first frame (listenView), the
// session's timeline: the page shows a slider over it.
func showTimeline(v *view.Server, tl *view.Timeline) error {
	if tl.Frames(0) == 0 {
		return errors.New("--view: no frame to show")
	}
	v.SetTimeline(tl)
	return nil
}

// listenView starts the live page's server at addr for a command's
// --view: before the command's work, so that an address that cannot be
// served is said at once, not after every frame was computed.
func listenView(addr string) (*view.Server, error) {
	v, err := view.Listen(addr, view.Options{})
	if err != nil {
		if errors.Is(err, access.ErrInUse) {
			return nil, portInUse("view", addr)
		}
		return nil, cannotListen("view", addr, err)
	}
	return v, nil
}

// cannotListen is the error of a command's --flag naming an address it
// cannot listen at (a port beyond 65535, an address not this machine's):
// the listener's own word, without the layers that repeat the address.
// An address that does not parse or resolve (no port, a port beyond
// 65535, a host or port name unknown) is a bad flag value, a usage
// error, as --target's are; one the machine refuses is not.
func cannotListen(flag, addr string, err error) error {
	var op *net.OpError
	if errors.As(err, &op) {
		err = op.Err
	}
	var bad *net.AddrError
	var unknown *net.DNSError
	if errors.As(err, &bad) || errors.As(err, &unknown) {
		return fmt.Errorf("%w: --%s %s: %v: choose host:port with a free port of this machine (or 127.0.0.1:0 for any)", errUsage, flag, addr, err)
	}
	return fmt.Errorf("--%s %s: %v: choose host:port with a free port of this machine (or 127.0.0.1:0 for any)", flag, addr, err)
}

// portInUse is the error of a command's --flag naming a port in use.
func portInUse(flag, addr string) error {
	return fmt.Errorf("--%s %s: the port is in use: choose a free port (or 127.0.0.1:0 for any)", flag, addr)
}

// showUntilDone keeps the page up until ctx ends (Ctrl-C).
func showUntilDone(ctx context.Context, v *view.Server, what string, out io.Writer) {
	fmt.Fprintf(out, "showing %s at %s (Ctrl-C ends)\n", what, v.URL())
	<-ctx.Done()
}
