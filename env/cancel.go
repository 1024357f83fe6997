package env

import (
	"context"
	"sync/atomic"
)

// A scene of a million triangles takes seconds to read and seconds more
// to build its trees: long enough for a SIGTERM or a Ctrl-C to come
// meanwhile, which must not wait for the end. The loops that take that
// long look at a context as they go: the readers every pollEvery lines or
// triangles, a tree's build at every node (through a flag the context's
// end sets, one atomic load a node), so that a load stops within
// milliseconds of its context ending and returns the context's error.

// pollEvery is how many lines or triangles a reader takes between looks
// at its context: a look costs a lock, and this many lines a fraction of
// a millisecond.
const pollEvery = 1 << 14

// polled reports ctx's error at every pollEvery-th i (and nil between).
func polled(ctx context.Context, i int) error {
	if i%pollEvery != 0 {
		return nil
	}
	return ctx.Err()
}

// stopFlag is set once its context ends: what goroutines building a tree
// look at, cheaper than the context itself.
type stopFlag struct {
	set     atomic.Bool
	release func() bool
}

// watch returns a flag set when ctx ends; close releases it.
func watch(ctx context.Context) *stopFlag {
	f := &stopFlag{}
	f.release = context.AfterFunc(ctx, func() { f.set.Store(true) })
	return f
}

func (f *stopFlag) close() { f.release() }
