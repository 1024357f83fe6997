package session

import (
	"fmt"
	"sync"
	"time"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/handcontact"
	"github.com/gloved/gloved/osc"
)

// HandPairs tests every pair of a set of hands against each other, each
// hand from its own side: after its frame, hand i publishes its pose
// (Publish) and tests it against the newest pose each other hand has
// published (Run). Hands whose frame loops run on different goroutines
// share one HandPairs; each hand's calls come from its own loop.
type HandPairs struct {
	names []string
	opt   handcontact.Options
	// maxDepth caps the level of detail (below 0: no cap).
	maxDepth int
	// stale is the age past which a hand's published pose is not used (a
	// glove that stopped sending).
	stale time.Duration

	mu    sync.Mutex
	pub   []published
	gen   uint64
	sides []side
}

// published is a hand's newest pose, guarded by HandPairs.mu.
type published struct {
	part handcontact.Hand
	pose handcontact.Pose
	at   time.Time
	gen  uint64 // changes with part (a glove reopened builds a new hand)
	ok   bool
}

// side is one hand's own state: only its frame loop touches it.
type side struct {
	pose, other handcontact.Pose
	met         bool           // other holds a pose tested by the last Run
	own         *cab.Hierarchy // the part the detectors were built for
	dets        []*handcontact.Detector
	gens        []uint64
	answer      HandAnswer
}

// HandAnswer is what a hand's last Run found against every other hand.
type HandAnswer struct {
	Contacts []HandContact
	Near     []HandNear
	// Limited lists the other hands whose test a depth limit stopped, and
	// at which level: the hands' boxes at that level overlap (a collision
	// at that level of detail), and the pairs of links below it were not
	// measured.
	Limited []HandLevel
}

// HandContact is a contact with another hand, Hand (by its index).
type HandContact struct {
	Hand int
	handcontact.Contact
}

// HandNear is a link within the band of a link of another hand, Hand.
type HandNear struct {
	Hand int
	handcontact.Near
}

// HandLevel is the level the test against another hand, Hand, stopped at.
type HandLevel struct {
	Hand, Level int
}

// HandPairsOptions tune the tests between hands.
type HandPairsOptions struct {
	// Proximity is the band (m) within which links are reported near.
	Proximity float64
	// MaxDepth caps the level of detail: the hierarchies are never
	// descended deeper (below 0: as deep as the frame's time allows).
	MaxDepth int
	// Stale is how old another hand's pose may be and still be tested
	// (0: DefaultStale).
	Stale time.Duration
}

// DefaultStale is how long a hand that has stopped sending frames is
// still met by the others: a few frames of a glove at 100 Hz, well below
// what a person notices.
const DefaultStale = 250 * time.Millisecond

// measureReps is how many times a new pair of hands times each level.
const measureReps = 3

// NewHandPairs prepares the tests between the named hands (index i is
// hand i of Publish and Run).
func NewHandPairs(names []string, o HandPairsOptions) (*HandPairs, error) {
	if !(o.Proximity >= 0) || o.Proximity > 1 {
		return nil, fmt.Errorf("session: hand proximity %v: want 0 to 1 m", o.Proximity)
	}
	if o.Stale == 0 {
		o.Stale = DefaultStale
	}
	hp := &HandPairs{names: names, opt: handcontact.Options{Proximity: o.Proximity}, maxDepth: o.MaxDepth, stale: o.Stale,
		pub: make([]published, len(names)), sides: make([]side, len(names))}
	for i := range hp.sides {
		hp.sides[i].dets = make([]*handcontact.Detector, len(names))
		hp.sides[i].gens = make([]uint64, len(names))
	}
	return hp, nil
}

// Publish makes hand i's last frame (p's) the pose the other hands test
// against.
func (hp *HandPairs) Publish(i int, p *Pipeline, now time.Time) {
	hp.mu.Lock()
	defer hp.mu.Unlock()
	pub := &hp.pub[i]
	if !pub.ok || pub.part.Hier != p.part.Hier {
		hp.gen++
		pub.part, pub.gen = p.part, hp.gen
	}
	p.HandPose(&pub.pose)
	pub.at, pub.ok = now, true
}

// Run tests hand i's last frame (p's) against the newest pose of every
// other hand published within the stale age of now, each test as deep
// as the time left (left, less what this Run has taken so far) allows by
// the costs its detector has measured, and keeps the answer for Answer
// and FillFrame. A new pair of
// hands first measures its levels' costs.
func (hp *HandPairs) Run(i int, p *Pipeline, now time.Time, left time.Duration) error {
	start := time.Now()
	s := &hp.sides[i]
	s.answer.Contacts, s.answer.Near, s.answer.Limited = s.answer.Contacts[:0], s.answer.Near[:0], s.answer.Limited[:0]
	if s.own != p.part.Hier {
		clear(s.dets)
		s.own = p.part.Hier
	}
	// This hand's pose is read on this goroutine only: the pipeline's own
	// buffers (refitted now if the frame did not need them), not a copy.
	p.refitBoxes()
	s.pose = handcontact.Pose{Links: p.poses, Boxes: p.hier.Boxes, Leaves: p.hier.Leaves}
	s.met = false
	for j := range hp.pub {
		if j == i {
			continue
		}
		hp.mu.Lock()
		pub := &hp.pub[j]
		fresh := pub.ok && now.Sub(pub.at) <= hp.stale
		part, gen := pub.part, pub.gen
		if fresh {
			s.other.CopyFrom(&pub.pose)
		}
		hp.mu.Unlock()
		if !fresh {
			continue
		}
		d := s.dets[j]
		if d == nil || s.gens[j] != gen {
			var err error
			if d, err = handcontact.New(p.part, part, hp.opt); err != nil {
				return fmt.Errorf("hands %s and %s: %w", hp.names[i], hp.names[j], err)
			}
			if err := d.Measure(&s.pose, &s.other, measureReps); err != nil {
				return fmt.Errorf("hands %s and %s: %w", hp.names[i], hp.names[j], err)
			}
			s.dets[j], s.gens[j] = d, gen
		}
		level := d.Choose(left - time.Since(start))
		if hp.maxDepth >= 0 && (level < 0 || level > hp.maxDepth) {
			level = hp.maxDepth
		}
		if err := d.Frame(&s.pose, &s.other, level); err != nil {
			return fmt.Errorf("hands %s and %s: %w", hp.names[i], hp.names[j], err)
		}
		s.met = true
		for _, c := range d.Contacts {
			s.answer.Contacts = append(s.answer.Contacts, HandContact{Hand: j, Contact: c})
		}
		for _, n := range d.Near {
			s.answer.Near = append(s.answer.Near, HandNear{Hand: j, Near: n})
		}
		if d.Limited {
			s.answer.Limited = append(s.answer.Limited, HandLevel{Hand: j, Level: d.Level})
		}
	}
	return nil
}

// Answer returns hand i's last answer.
func (hp *HandPairs) Answer(i int) *HandAnswer { return &hp.sides[i].answer }

// Tested returns the poses hand i's last Run tested: its own and that of
// the last other hand it met; ok is false when it met none (every other
// hand absent or stale). Call it from hand i's frame loop.
func (hp *HandPairs) Tested(i int) (own, other *handcontact.Pose, ok bool) {
	s := &hp.sides[i]
	return &s.pose, &s.other, s.met
}

// Detector returns hand i's detector against hand j (nil until they have
// met), for inspecting its costs and answers. Call it from hand i's frame
// loop.
func (hp *HandPairs) Detector(i, j int) *handcontact.Detector { return hp.sides[i].dets[j] }

// FillFrame fills f's hand-vs-hand contacts, near pairs and levels of
// detail from hand i's last answer, hands and links by name. Once f's
// slices have grown it allocates nothing.
func (hp *HandPairs) FillFrame(i int, f *osc.Frame) {
	a := &hp.sides[i].answer
	f.Hands, f.HandNear, f.LOD = f.Hands[:0], f.HandNear[:0], f.LOD[:0]
	for _, c := range a.Contacts {
		f.Hands = append(f.Hands, osc.HandContact{Other: hp.names[c.Hand], Link: c.Link.String(), OtherLink: c.Other.String(),
			Depth: c.Depth, Point: c.Point.Mgl(), Normal: c.Normal.Mgl()})
	}
	for _, n := range a.Near {
		f.HandNear = append(f.HandNear, osc.HandNear{Other: hp.names[n.Hand], Link: n.Link.String(), OtherLink: n.Other.String(), Distance: n.Distance})
	}
	for _, l := range a.Limited {
		f.LOD = append(f.LOD, osc.LOD{Other: hp.names[l.Hand], Level: int32(l.Level)})
	}
}
