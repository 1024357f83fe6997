package contact

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/gloved/gloved/configs"
	"github.com/gloved/gloved/env"
)

// Check checks the methods a configuration names for the objects of
// mesh, whose convexity must be detected, without preparing any: every
// object named is in the scene, every method named is registered, and
// each takes its object. NewScene refuses the same names; Check lets a
// program refuse them when it loads the scene, before a glove is open.
// Measuring an object takes its tree, given up once ctx ends.
func Check(ctx context.Context, mesh *env.Mesh, methods map[string]string) error {
	for _, name := range slices.Sorted(maps.Keys(methods)) {
		if err := check(ctx, mesh, name, methods[name]); err != nil {
			return err
		}
	}
	return nil
}

// check checks method for every object called name: a scene may hold
// several its files named so, renamed NAME.N when it loaded (env.Mesh.Named).
func check(ctx context.Context, mesh *env.Mesh, name, method string) error {
	_, m, err := named(mesh, name, method)
	if err != nil || m.Refuses == nil {
		return err
	}
	for o := range mesh.Objects {
		if !mesh.Named(o, name) {
			continue
		}
		kind, err := kindOf(ctx, mesh, o)
		if cerr := ctx.Err(); cerr != nil { // given up: not the method's fault
			return fmt.Errorf("contact: methods: %w", cerr)
		}
		if err == nil {
			err = m.Refuses(kind)
		}
		if err != nil {
			return &MethodError{name, method, err}
		}
	}
	return nil
}

// kindOf measures object o of mesh wholly: convex, closed, with a hull.
func kindOf(ctx context.Context, mesh *env.Mesh, o int) (Kind, error) {
	_, hull := mesh.ObjectHull(o)
	kind := Kind{Convex: len(mesh.Convex) > o && mesh.Convex[o], Hull: hull}
	surf, err := env.NewSurfaceContext(ctx, mesh, o)
	if err != nil {
		return kind, err
	}
	kind.Closed = surf.Closed
	return kind, nil
}

// named returns the object called name and the method registered as
// method.
func named(mesh *env.Mesh, name, method string) (int, Method, error) {
	o := -1
	for i := range mesh.Objects {
		if mesh.Named(i, name) {
			o = i
			break
		}
	}
	if o < 0 {
		return 0, Method{}, &MethodError{name, method, fmt.Errorf("the scene has no such object: its objects are %s", configs.List(mesh.Objects, "and"))}
	}
	m, ok := Lookup(method)
	if !ok {
		return 0, Method{}, &MethodError{name, method, fmt.Errorf("no such contact method: want %s", configs.List(Names(), "or"))}
	}
	return o, m, nil
}

// MethodError is a method named for an object that cannot be used: the
// object or the method does not exist, or the method cannot take the
// object.
type MethodError struct {
	Object, Method string
	Err            error
}

func (e *MethodError) Error() string {
	return fmt.Sprintf("contact: methods: %q = %q: %v", e.Object, e.Method, e.Err)
}

func (e *MethodError) Unwrap() error { return e.Err }
