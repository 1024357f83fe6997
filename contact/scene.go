package contact

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sync/atomic"
	"time"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/configs"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/traversal"
)

// Options tune a scene's contact methods.
type Options struct {
	// Proximity is the band (m) within which links that do not touch an
	// object are reported as near; 0 reports none.
	Proximity float64
	// CountTris counts, for each contact, the object's triangles the link
	// touches: on a deep grasp of a finely tessellated object it is most
	// of the frame.
	CountTris bool
	// NoAccel turns every acceleration off: each frame's queries start
	// from nothing instead of from the last frame's answers, and nothing
	// built at load prunes them. Slower; the same answers, which is what
	// it is for: to show that they are.
	NoAccel bool
	// Methods names the contact method of objects by their names; the
	// others get the automatic choice (Choose).
	Methods map[string]string
	// Workers is how many goroutines may answer one frame's candidates,
	// each taking the costliest (link, object) pair nobody has taken yet
	// (0: one per CPU; at most 4). A frame is split only when the last
	// one's took longer than some tens of microseconds, and with NoAccel
	// never. The answers are the same however it is split.
	Workers int
	// SplitAbove is how long a frame's candidates must take for the
	// next frame's to be split among the workers (0: 60 us; negative:
	// every frame, as tests of the split want).
	SplitAbove time.Duration
	// Shared is where the objects' prepared data is kept for every body
	// that meets the same scene (nil: this scene's own). It must be the
	// Shared of the scene's mesh.
	Shared *Shared
}

// Scene is a scene whose objects carry their contact methods, for one
// body's links: each frame, Traverse finds the candidate pairs and Solve
// answers them. After construction it allocates nothing per frame.
type Scene struct {
	Mesh  *env.Mesh
	Links []Link
	// Objects are the scene's objects as their methods prepared them;
	// Method names each one's method.
	Objects []Object
	Method  []string
	// Results are the last Solve's contacts and near misses.
	Results

	opt       Options
	cands     traversal.Candidates
	traversed []traversal.Object
	// Per object: its root box, fitted once (env.Tree.Bounds); the tree
	// over them (objecttree.go, nil with NoAccel: every object is
	// visited), the frame's objects within reach of the hand, and all.
	roots   []geom.OBB
	objects *objectTree
	near    []int32
	every   []int32 // 0, 1, ..., each object
	// The candidate pairs of this frame and the last, in their order,
	// and what each one's answer took (split.go): what is kept of pairs
	// grows with the candidates, not with links times objects.
	pairs, last    []pair
	cost, lastCost []time.Duration
	// Sharing a frame among workers (split.go).
	workers   []worker
	order     []int32      // the frame's candidates, costliest first when shared
	spans     []span       // per candidate: where its answer went
	next      atomic.Int32 // the next of order to take
	poses     []geom.Transform
	shares    int         // how many workers answered the last frame
	passed    bool        // PassOver found the last frame had nothing to answer
	quiet     bool        // the frame before had no candidates either
	centres   []geom.Vec3 // scratch: each link's box centre in the world
	boxRadius float64     // the largest link box's half-diagonal
}

// pair is a candidate's link and object.
type pair struct{ link, object int32 }

// before orders pairs as the candidates are: by link, then object.
func (p pair) before(q pair) bool {
	return p.link < q.link || p.link == q.link && p.object < q.object
}

// NewScene prepares every object of mesh, whose convexity must be
// detected (env.Mesh.DetectConvex), for links with the method Options
// name or else the automatic choice.
func NewScene(mesh *env.Mesh, links []Link, o Options) (*Scene, error) {
	if len(mesh.Convex) != len(mesh.Objects) {
		return nil, fmt.Errorf("contact: scene convexity not detected (call Mesh.DetectConvex)")
	}
	if o.Workers < 0 {
		return nil, fmt.Errorf("contact: workers %d must be >= 0", o.Workers)
	}
	if !(o.Proximity >= 0) {
		return nil, fmt.Errorf("contact: proximity %v must be >= 0", o.Proximity)
	}
	for _, name := range slices.Sorted(maps.Keys(o.Methods)) {
		if _, _, err := named(mesh, name, o.Methods[name]); err != nil {
			return nil, err
		}
	}
	if o.Shared == nil {
		o.Shared = NewShared(mesh)
	} else if o.Shared.Mesh() != mesh {
		return nil, fmt.Errorf("contact: the shared preparations are another scene's")
	}
	s := &Scene{Mesh: mesh, Links: links, opt: o}
	for i := range mesh.Objects {
		obj, name, err := prepare(mesh, i, links, o)
		if err != nil {
			return nil, err
		}
		s.Objects, s.Method = append(s.Objects, obj), append(s.Method, name)
		s.traversed = append(s.traversed, obj)
		s.roots = append(s.roots, obj.Tree().Bounds())
		s.every = append(s.every, int32(i))
	}
	if !o.NoAccel && len(s.Objects) > 0 {
		s.objects = newObjectTree(s.roots)
		// Never nil, even before any object is near: RunOn takes nil
		// for every object.
		s.near = make([]int32, 0, min(len(s.Objects), 64))
	}
	s.cands.Band = o.Proximity
	s.centres = make([]geom.Vec3, len(links))
	for _, l := range links {
		s.boxRadius = max(s.boxRadius, l.Box.Half.Len())
	}
	s.newWorkers()
	return s, nil
}

// prepare gives object i its method and prepares it.
func prepare(mesh *env.Mesh, i int, links []Link, o Options) (Object, string, error) {
	p := Prep{Scene: mesh, Object: i, Links: links, Options: o}
	method, named := o.Methods[p.Name()]
	if !named && mesh.Given != nil { // renamed NAME.N: the key its files gave it
		method = o.Methods[mesh.Given[i]]
	}
	m, ok := Lookup(method)
	if !ok { // not named: choose by its kind
		kind := Kind{Convex: mesh.Convex[i]}
		if !kind.Convex {
			surf, err := o.Shared.Surface(i)
			if err != nil {
				return nil, "", fmt.Errorf("contact: %w", err)
			}
			p.Surface, kind.Closed = surf, surf.Closed
		}
		if m, ok = Choose(kind); !ok {
			return nil, "", fmt.Errorf("contact: object %q: no registered contact method takes an object that is %s: there are %s", p.Name(), kind, configs.List(Names(), "and"))
		}
	}
	obj, err := m.Prepare(p)
	if err != nil {
		return nil, "", &MethodError{p.Name(), m.Name, err}
	}
	return obj, m.Name, nil
}

// Traverse finds the frame's candidate pairs: the links of hierarchy h,
// refitted for poses, near each object, with the fronts their methods
// want (traversal.Candidates).
func (s *Scene) Traverse(h *cab.Hierarchy, poses []geom.Transform) {
	s.passed = false
	s.cands.RunOn(h, s.traversed, s.reached(h.Box(h.Root)), poses)
}

// reached returns the objects whose root boxes may be within the band of
// some link, in increasing order, hand being a box around the links'
// boxes: those whose boxes meet hand grown by √3 times the band, as the
// traversal grows a node's box (a link's box grown by the band along its
// own axes reaches that far along the world's). Every object without
// the tree.
func (s *Scene) reached(hand *geom.OBB) []int32 {
	if s.objects == nil {
		return s.every
	}
	box := hand.AABB()
	g := s.opt.Proximity * math.Sqrt(3)
	grow := geom.Vec3{X: g, Y: g, Z: g}
	s.near = s.objects.near(geom.AABB{Min: box.Min.Sub(grow), Max: box.Max.Add(grow)}, s.near[:0])
	return s.near
}

// Candidates returns the last Traverse's candidates.
func (s *Scene) Candidates() *traversal.Candidates { return &s.cands }

// Solve answers the last Traverse's candidates, the links at poses, into
// Results: each candidate by its object's method, split among
// Options.Workers goroutines, pair by pair, when the frame is costly. The
// results come in the candidates' order, by link, then object.
func (s *Scene) Solve(poses []geom.Transform) {
	if s.passed && s.quiet {
		return // nothing to answer, and nothing last frame to forget
	}
	s.quiet = len(s.cands.List) == 0
	s.carry()
	s.answer(poses)
}

// carry files the frame's candidate pairs, gives each the time its answer
// took last frame, makes what a lazy object keeps of the links, and has
// the objects forget the warm starts of last frame's pairs that are not
// candidates now. Both frames' pairs are in the candidates' order, so one
// pass over the two finds them.
func (s *Scene) carry() {
	s.last, s.pairs = s.pairs, s.last[:0]
	s.lastCost, s.cost = s.cost, s.lastCost[:0]
	j := 0
	for i := range s.cands.List {
		c := &s.cands.List[i]
		p := pair{c.Link, c.Object}
		for ; j < len(s.last) && s.last[j].before(p); j++ {
			s.Objects[s.last[j].object].Forget(int(s.last[j].link))
		}
		var took time.Duration
		if j < len(s.last) && s.last[j] == p {
			took = s.lastCost[j]
			j++
		}
		s.pairs, s.cost = append(s.pairs, p), append(s.cost, took)
		if lz, ok := s.Objects[c.Object].(Lazy); ok {
			lz.Ready()
		}
	}
	for ; j < len(s.last); j++ {
		s.Objects[s.last[j].object].Forget(int(s.last[j].link))
	}
}
