package chains

import (
	"cmp"
	"fmt"
	"slices"
	"sync"
)

// Pair is two spheres that overlap, A < B.
type Pair struct{ A, B int32 }

// LinkPair is two links, A < B.
type LinkPair struct{ A, B int32 }

// linkGroup is the chained sphere pairs between two links.
type linkGroup struct {
	links LinkPair
	pairs []Pair // a run of chainPairs
	hit   int32  // the pair that overlapped last
}

// SetChains sets the chains (section 4): lists of sphere indices tested
// among themselves. A sphere may be in several.
func (s *Set) SetChains(chains [][]int32) error {
	for c, ch := range chains {
		for _, i := range ch {
			if i < 0 || int(i) >= len(s.Spheres) {
				return fmt.Errorf("chains: chain %d names sphere %d of %d", c, i, len(s.Spheres))
			}
		}
	}
	s.Chains = chains
	seen := map[Pair]bool{}
	s.chainPairs = s.chainPairs[:0]
	for _, ch := range chains {
		for x, a := range ch {
			for _, b := range ch[x+1:] {
				p := Pair{min(a, b), max(a, b)}
				if a != b && s.Counts(a, b) && !seen[p] {
					seen[p] = true
					s.chainPairs = append(s.chainPairs, p)
				}
			}
		}
	}
	s.groupByLinks()
	return nil
}

// links returns the links of pair p's spheres, in order.
func (s *Set) links(p Pair) LinkPair {
	a, b := s.Fits[p.A].Link, s.Fits[p.B].Link
	return LinkPair{min(a, b), max(a, b)}
}

// groupByLinks orders the chained pairs by their links and notes each
// link pair's run, and each link's spheres.
func (s *Set) groupByLinks() {
	slices.SortStableFunc(s.chainPairs, func(x, y Pair) int {
		lx, ly := s.links(x), s.links(y)
		return cmp.Or(cmp.Compare(lx.A, ly.A), cmp.Compare(lx.B, ly.B))
	})
	s.groups, s.linkPairs = s.groups[:0], s.linkPairs[:0]
	for i := 0; i < len(s.chainPairs); {
		l := s.links(s.chainPairs[i])
		j := i + 1
		for j < len(s.chainPairs) && s.links(s.chainPairs[j]) == l {
			j++
		}
		s.groups = append(s.groups, linkGroup{links: l, pairs: s.chainPairs[i:j]})
		s.linkPairs = append(s.linkPairs, l)
		i = j
	}
}

// LinkPairs are the pairs of links the chains hold countable sphere pairs
// between, in order: group g of GroupOverlaps is LinkPairs()[g].
func (s *Set) LinkPairs() []LinkPair { return s.linkPairs }

// GroupOverlaps reports whether a chained pair of spheres between the
// links of group g overlaps (each grown by slack): a caller confirming on
// the links needs no more than that, so it stops at the first, trying
// first the pair that overlapped last time. The spheres of both links
// must be current (Update, or UpdateLink for each).
func (s *Set) GroupOverlaps(g int, slack float64) bool {
	grp := &s.groups[g]
	if p := grp.pairs[grp.hit]; s.Spheres[p.A].Overlaps(s.Spheres[p.B], slack) {
		return true
	}
	for k, p := range grp.pairs {
		if s.Spheres[p.A].Overlaps(s.Spheres[p.B], slack) {
			grp.hit = int32(k)
			return true
		}
	}
	return false
}

// OverlapsChained appends each overlapping pair the chains hold once:
// M1's test over the distinct countable pairs of all chains, listed when
// the chains were set, so that a frame tests each pair once and never an
// adjacent one. The frame loop uses it. It allocates nothing once out
// has grown.
func (s *Set) OverlapsChained(slack float64, out []Pair) []Pair {
	for _, p := range s.chainPairs {
		if s.Spheres[p.A].Overlaps(s.Spheres[p.B], slack) {
			out = append(out, p)
		}
	}
	return out
}

// OverlapsM1 appends the overlapping pairs inside each chain (the paper's
// M1, with chains), each sphere grown by slack; a pair in two chains is
// appended twice, as the paper counts. It allocates nothing once out has
// grown.
func (s *Set) OverlapsM1(slack float64, out []Pair) []Pair {
	for _, ch := range s.Chains {
		out = s.overlapsIn(ch, slack, out)
	}
	return out
}

// overlapsIn appends the overlapping pairs among the spheres ch names.
func (s *Set) overlapsIn(ch []int32, slack float64, out []Pair) []Pair {
	for x, a := range ch {
		sa := s.Spheres[a]
		for _, b := range ch[x+1:] {
			if sa.Overlaps(s.Spheres[b], slack) && s.Counts(a, b) {
				out = append(out, Pair{min(a, b), max(a, b)})
			}
		}
	}
	return out
}

// OverlapsM2 appends the overlapping pairs over all spheres (M2, no
// chains).
func (s *Set) OverlapsM2(slack float64, out []Pair) []Pair {
	for a := range int32(len(s.Spheres)) {
		sa := s.Spheres[a]
		for b := a + 1; b < int32(len(s.Spheres)); b++ {
			if sa.Overlaps(s.Spheres[b], slack) && s.Counts(a, b) {
				out = append(out, Pair{a, b})
			}
		}
	}
	return out
}

// Parallel runs the overlap tests with goroutines (section 5.2's parallel
// versions): one per chain for M1, one per block of spheres for M2. Its
// buffers are its own; it is for measuring, the frame loop uses the
// sequential tests.
type Parallel struct {
	set  *Set
	outs [][]Pair
	wg   sync.WaitGroup
}

// NewParallel readies parallel tests over s, with workers goroutines for
// M2.
func NewParallel(s *Set, workers int) *Parallel {
	n := max(len(s.Chains), workers, 1)
	return &Parallel{set: s, outs: make([][]Pair, n)}
}

// M1 appends M1's pairs, a goroutine per chain.
func (p *Parallel) M1(slack float64, out []Pair) []Pair {
	for c := range p.set.Chains {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			p.outs[c] = p.set.overlapsIn(p.set.Chains[c], slack, p.outs[c][:0])
		}()
	}
	p.wg.Wait()
	for c := range p.set.Chains {
		out = append(out, p.outs[c]...)
	}
	return out
}

// M2 appends M2's pairs, the first spheres of each pair split among the
// workers in interleaved rows so that each does about as much.
func (p *Parallel) M2(slack float64, workers int, out []Pair) []Pair {
	s := p.set
	workers = min(max(workers, 1), len(p.outs))
	for w := range workers {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			o := p.outs[w][:0]
			for a := int32(w); a < int32(len(s.Spheres)); a += int32(workers) {
				for b := a + 1; b < int32(len(s.Spheres)); b++ {
					if s.Spheres[a].Overlaps(s.Spheres[b], slack) && s.Counts(a, b) {
						o = append(o, Pair{a, b})
					}
				}
			}
			p.outs[w] = o
		}()
	}
	p.wg.Wait()
	for w := range workers {
		out = append(out, p.outs[w]...)
	}
	return out
}
