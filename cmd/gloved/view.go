package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/gloved/gloved/access"
	"github.com/gloved/gloved/view"
)

// openView starts the live page's server at addr for an offline command
// (replay --view, contacts --view), with its timeline: the page shows a
// slider over it.
func openView(addr string, tl *view.Timeline) (*view.Server, error) {
	if tl.Frames(0) == 0 {
		return nil, errors.New("--view: no frame to show")
	}
	v, err := listenView(addr)
	if err != nil {
		return nil, err
	}
	v.SetTimeline(tl)
	return v, nil
}

// listenView starts the live page's server at addr for a command's
// --view.
func listenView(addr string) (*view.Server, error) {
	v, err := view.Listen(addr, view.Options{})
	if err != nil {
		if errors.Is(err, access.ErrInUse) {
			return nil, fmt.Errorf("--view %s: the port is in use: choose a free port (or 127.0.0.1:0 for any)", addr)
		}
		return nil, fmt.Errorf("--view %s: %w", addr, err)
	}
	return v, nil
}

// showUntilDone keeps the page up until ctx ends (Ctrl-C).
func showUntilDone(ctx context.Context, v *view.Server, what string, out io.Writer) {
	fmt.Fprintf(out, "showing %s at %s (Ctrl-C ends)\n", what, v.URL())
	<-ctx.Done()
}
