package contact

import (
	"cmp"
	"fmt"
	"slices"
	"sync"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/traversal"
)

// Kind is what loading found a scene object to be, which the automatic
// choice of its method reads.
type Kind struct {
	// Convex: the object's mesh is its own convex hull (env.Mesh.Convex).
	Convex bool
	// Closed: watertight and consistently wound (env.Surface.Closed);
	// looked at only for objects that are not convex.
	Closed bool
	// Hull: its vertices have a convex hull (they do not all lie in one
	// plane); known only when a configuration names the object's method
	// (Check).
	Hull bool
}

// String describes the kind in words, for messages.
func (k Kind) String() string {
	switch {
	case k.Convex:
		return "convex"
	case k.Closed:
		return "closed and not convex"
	}
	return "open"
}

// Prep is what a method prepares a scene object from.
type Prep struct {
	Scene   *env.Mesh
	Object  int // its index in Scene.Objects
	Links   []Link
	Options Options
	// Surface is the object prepared for signed distance when choosing
	// its method needed it (an object that is not convex), else nil: a
	// method that needs one takes it, or Options.Shared's, instead of
	// building another.
	Surface *env.Surface
}

// Name returns the object's name, for errors.
func (p *Prep) Name() string { return p.Scene.Objects[p.Object] }

// Object is a scene object prepared by its method: what the traversal
// needs of it, and its answer for each candidate pair.
type Object interface {
	traversal.Object
	// Collide computes candidate c's answer for the frame, the link at
	// pose x, and appends it to out: a contact, a near miss, or nothing.
	// It is not called for a candidate its Clear passed over (c.Clear).
	Collide(c *traversal.Candidate, x geom.Transform, out *Results)
	// Forget drops the warm starts the object kept for link l: the pair
	// was a candidate last frame and is not in this one.
	Forget(l int)
}

// A Lazy Object makes what it keeps of the links from frame to frame
// (warm starts, clearances) only when some link first comes near it, so
// that a scene of many objects holds it for those the hand has met, not
// for every (link, object) pair. A Scene calls Ready for each candidate
// before any is answered, in the part of the frame that runs alone, and
// so allocates in the frames where the hand first meets an object; the
// frames after, nothing.
type Lazy interface {
	Object
	Ready()
}

// Method is a contact method as registered.
type Method struct {
	// Name is how a configuration names the method.
	Name string
	// Doc says in a line what the method computes, for objects of what
	// kind.
	Doc string
	// Rank orders the automatic choice: an object not given a method
	// gets the method of least rank that takes its kind. Rank 0 is never
	// chosen automatically, only by name.
	Rank int
	// Takes reports whether the automatic choice may give the method an
	// object of kind k.
	Takes func(k Kind) bool
	// Refuses, if set, says why the method cannot take an object of kind
	// k that a configuration names it for (nil: it can), so that a
	// configuration is refused before any object is prepared.
	Refuses func(k Kind) error
	// Prepare builds the method's object, once, when the scene loads.
	Prepare func(p Prep) (Object, error)
}

var registry struct {
	sync.Mutex
	byName map[string]Method
}

// Register adds a method. Each method's package registers it from its
// init function, and the program imports the package (contact/all
// imports every method gloved ships). It panics on a method without a
// name or a Prepare, or a name already registered: both are mistakes in
// the program, not in its input.
func Register(m Method) {
	if m.Name == "" || m.Prepare == nil || (m.Rank != 0 && m.Takes == nil) {
		panic(fmt.Sprintf("contact: method %q registered without a name, a Prepare, or (ranked) a Takes", m.Name))
	}
	registry.Lock()
	defer registry.Unlock()
	if _, dup := registry.byName[m.Name]; dup {
		panic("contact: method " + m.Name + " registered twice")
	}
	if registry.byName == nil {
		registry.byName = make(map[string]Method)
	}
	registry.byName[m.Name] = m
}

// Lookup returns the method registered as name.
func Lookup(name string) (Method, bool) {
	registry.Lock()
	defer registry.Unlock()
	m, ok := registry.byName[name]
	return m, ok
}

// Methods returns every registered method, by name.
func Methods() []Method {
	registry.Lock()
	defer registry.Unlock()
	var out []Method
	for _, m := range registry.byName {
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b Method) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// Names returns the registered methods' names, for messages.
func Names() []string {
	var out []string
	for _, m := range Methods() {
		out = append(out, m.Name)
	}
	return out
}

// Choose returns the method of least rank that takes kind k.
func Choose(k Kind) (Method, bool) {
	var best Method
	found := false
	for _, m := range Methods() {
		if m.Rank > 0 && m.Takes(k) && (!found || m.Rank < best.Rank) {
			best, found = m, true
		}
	}
	return best, found
}
