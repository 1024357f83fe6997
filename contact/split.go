package contact

import (
	"cmp"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/gloved/gloved/geom"
)

// A Forker is an Object whose candidates can be answered at once. Fork
// returns an Object that shares everything this one keeps per link (warm
// starts, hints) and has scratch of its own. A scene never gives one
// candidate (link and object) to two of them in a frame, and their
// answers are the same as the original's: what a fork answers depends on
// nothing the other forks do.
type Forker interface {
	Object
	Fork() Object
}

// MaxWorkers is the most goroutines answer one frame's candidates: the
// calling one and MaxWorkers-1 helpers of the package's pool.
const MaxWorkers = 4

// splitAbove is how long the last frame's candidates must have taken for
// this frame's to be shared, unless Options.SplitAbove says otherwise:
// below it the handing over costs more than it saves (waking a parked
// helper takes some microseconds).
const splitAbove = 60 * time.Microsecond

// worker answers candidates with objects of its own (the scene's for the
// first, forks for the others) into results of its own.
type worker struct {
	s      *Scene
	k      int32 // its index in the scene's workers
	objs   []Object
	res    Results
	done   chan struct{} // a helper's signal that it has answered
	handed bool          // a helper took its part this frame
}

// span is where candidate's answer went: the results of worker w,
// contacts [c0, c1) and near misses [n0, n1).
type span struct {
	w              int32
	c0, c1, n0, n1 int32
}

// helpers is the package's pool of goroutines that take a share of a
// frame's candidates, started at the first shared frame (GOMAXPROCS-1 of
// them, at most MaxWorkers-1). They live as long as the process, parked
// between frames.
var helpers struct {
	once sync.Once
	jobs chan *worker
}

func startHelpers() {
	helpers.jobs = make(chan *worker)
	for range min(runtime.GOMAXPROCS(0), MaxWorkers) - 1 {
		go func() {
			for w := range helpers.jobs {
				w.s.drain(w)
				w.done <- struct{}{}
			}
		}()
	}
}

// newWorkers makes the scene's workers: the first answers with the
// scene's objects, each other with forks of its own of them. With an
// object that cannot fork, or NoAccel, there is one.
func (s *Scene) newWorkers() {
	n := s.opt.Workers
	if n == 0 {
		n = runtime.GOMAXPROCS(0)
	}
	if s.opt.NoAccel {
		n = 1
	}
	n = max(1, min(n, MaxWorkers))
	s.workers = make([]worker, 1, n)
	s.workers[0] = worker{s: s, objs: s.Objects, k: 0}
	for _, o := range s.Objects {
		if _, ok := o.(Forker); !ok {
			return // one worker: this object's scratch is its own
		}
	}
	for range n - 1 {
		forks := make([]Object, len(s.Objects))
		for i, o := range s.Objects {
			forks[i] = o.(Forker).Fork()
		}
		s.workers = append(s.workers, worker{s: s, k: int32(len(s.workers)), objs: forks, done: make(chan struct{}, 1)})
	}
}

// answer answers the frame's candidates, the links at poses, into
// Results in their order. When the last answers of these pairs took
// long, the workers share them: each takes the costliest candidate
// nobody has taken yet until none is left, and the answers are gathered
// in the candidates' order.
func (s *Scene) answer(poses []geom.Transform) {
	list := s.cands.List
	s.poses = poses
	var total time.Duration
	for i := range list {
		total += s.cost[i]
	}
	above := s.opt.SplitAbove
	if above == 0 {
		above = splitAbove
	}
	if len(list) > len(s.spans) { // more candidates than ever: grown once
		s.spans = make([]span, len(list))
	}
	s.order = s.order[:0]
	for i := range list {
		s.order = append(s.order, int32(i))
	}
	if len(s.workers) == 1 || len(list) < 2 || total < above {
		s.shares = 1
		s.Contacts, s.Near = s.Contacts[:0], s.Near[:0]
		s.drainInto(&s.Results, 0)
		return
	}
	slices.SortStableFunc(s.order, func(a, b int32) int { return cmp.Compare(s.cost[b], s.cost[a]) })
	s.next.Store(0)
	s.shares = min(len(s.workers), len(list))
	helpers.once.Do(startHelpers)
	for i := 1; i < s.shares; i++ {
		w := &s.workers[i]
		select {
		case helpers.jobs <- w: // a helper was waiting for work
			w.handed = true
		default: // all busy (another scene's frame): the rest is ours
			w.handed = false
		}
	}
	s.drain(&s.workers[0])
	for i := 1; i < s.shares; i++ {
		if w := &s.workers[i]; w.handed {
			<-w.done
		}
	}
	s.Contacts, s.Near = s.Contacts[:0], s.Near[:0]
	for i := range list {
		sp := &s.spans[i]
		r := &s.workers[sp.w].res
		s.Contacts = append(s.Contacts, r.Contacts[sp.c0:sp.c1]...)
		s.Near = append(s.Near, r.Near[sp.n0:sp.n1]...)
	}
}

// drain answers candidates into w's results, taking the next in the
// frame's order until none is left.
func (s *Scene) drain(w *worker) {
	w.res.Contacts, w.res.Near = w.res.Contacts[:0], w.res.Near[:0]
	s.drainInto(&w.res, w.k)
}

// drainInto answers the candidates nobody has taken, in order, with
// worker k's objects into out, timing each for the next frame's order.
func (s *Scene) drainInto(out *Results, k int32) {
	list, objs := s.cands.List, s.workers[k].objs
	alone := s.shares == 1
	start := time.Now()
	for n := 0; ; n++ {
		i := n
		if !alone {
			i = int(s.next.Add(1)) - 1
		}
		if i >= len(list) {
			return
		}
		ci := s.order[i]
		c := &list[ci]
		sp := span{w: k, c0: int32(len(out.Contacts)), n0: int32(len(out.Near))}
		sp.c1, sp.n1 = sp.c0, sp.n0
		if c.Clear { // the object proved it beyond the band: nothing to answer
			s.spans[ci], s.cost[ci] = sp, 0
			start = time.Now()
			continue
		}
		objs[c.Object].Collide(c, s.poses[c.Link], out)
		sp.c1, sp.n1 = int32(len(out.Contacts)), int32(len(out.Near))
		s.spans[ci] = sp
		now := time.Now()
		s.cost[ci], start = now.Sub(start), now
	}
}

// Shares returns how many workers shared the last frame's candidates: 1
// unless they were split.
func (s *Scene) Shares() int { return s.shares }
