package contact

import (
	"context"
	"fmt"
	"sync"

	"github.com/gloved/gloved/env"
)

// Shared is what a scene's objects prepare once, whatever the number of
// bodies that meet them: each non-convex object's Surface (its tree and
// signed-distance data) and what a method builds over it (a grid). Every
// hand of a daemon, and a glove's session opened again, takes them from
// one Shared: the second hand costs its links, not the scene again. (A
// reload loads its scene anew, and so makes a new Shared.) It is safe for concurrent use, and what it hands out
// is read-only.
type Shared struct {
	// ctx ends what the Shared prepares: a daemon stopped while it
	// prepares a scene of millions of triangles stops at once.
	ctx   context.Context
	mesh  *env.Mesh
	mu    sync.Mutex
	surfs map[int]*env.Surface
	extra map[sharedKey]any
}

type sharedKey struct {
	object int
	what   string
}

// NewShared returns an empty Shared for mesh.
func NewShared(mesh *env.Mesh) *Shared { return NewSharedContext(context.Background(), mesh) }

// NewSharedContext is NewShared whose preparations are given up, with
// ctx's error (and not kept), once ctx ends.
func NewSharedContext(ctx context.Context, mesh *env.Mesh) *Shared {
	return &Shared{ctx: ctx, mesh: mesh, surfs: map[int]*env.Surface{}, extra: map[sharedKey]any{}}
}

// Mesh is the scene the Shared prepares for.
func (s *Shared) Mesh() *env.Mesh { return s.mesh }

// Len returns how many preparations s holds: the objects' surfaces and
// what methods built over them.
func (s *Shared) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.surfs) + len(s.extra)
}

// Surface returns object o's Surface, built on first use.
func (s *Shared) Surface(o int) (*env.Surface, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if surf, ok := s.surfs[o]; ok {
		return surf, nil
	}
	surf, err := env.NewSurfaceContext(s.ctx, s.mesh, o)
	if err != nil {
		return nil, err
	}
	s.surfs[o] = surf
	return surf, nil
}

// Prepared returns what build makes for object o under the name what,
// built on first use (a method's own data: "grid", "solid grid"). build
// is given the Shared's context, to give up when it ends. An error is
// not kept: the next call builds again.
func Prepared[T any](s *Shared, o int, what string, build func(ctx context.Context) (T, error)) (T, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := sharedKey{o, what}
	if v, ok := s.extra[k]; ok {
		t, ok := v.(T)
		if !ok {
			var zero T
			return zero, fmt.Errorf("contact: %s of object %d was prepared as %T", what, o, v)
		}
		return t, nil
	}
	if err := s.ctx.Err(); err != nil {
		var zero T
		return zero, fmt.Errorf("contact: %s of object %d: %w", what, o, err)
	}
	t, err := build(s.ctx)
	if err != nil {
		return t, err
	}
	s.extra[k] = t
	return t, nil
}
