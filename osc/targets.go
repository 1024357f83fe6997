package osc

import (
	"cmp"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// OSCQueryTarget starts a destination that is an OSCQuery service found at
// run time rather than an address: "oscquery:VRChat-Client-*" is every
// service whose instance name matches the glob (MatchInstance).
const OSCQueryTarget = "oscquery:"

// Services found are capped: at most MaxFoundPerGlob of those a pattern
// matches, MaxFound in all. Anyone on the link can answer mDNS with any
// number of instances, and each one sent to costs a copy of every frame;
// a lab runs a few. Those already sent to keep their places: one found
// beyond the caps waits (at most maxWaiting, the browser's own cap) and
// takes the place of one that is lost, in the order they came.
const (
	MaxFoundPerGlob = 8
	MaxFound        = 16
	maxWaiting      = 512
)

// Targets is one output profile's destinations: the fixed addresses its
// configuration lists, and the OSCQuery services an mDNS browser finds
// (Found, Lost) whose instance names match its patterns, within the caps
// above. Addrs is safe to call while services come and go, and allocates
// nothing: it is read for every frame.
type Targets struct {
	fixed    []netip.AddrPort
	patterns []string

	mu      sync.Mutex
	found   map[string]netip.AddrPort // sent to, by instance name
	perGlob []int                     // instances sent to, by the first pattern each matches
	waiting []waiter                  // found beyond the caps, in the order they came
	leftOut atomic.Uint64             // instances that had to wait

	addrs atomic.Pointer[[]netip.AddrPort] // fixed, then found by name; never changed once stored
}

// NewTargets reads a profile's destinations: each is "host:port" (a host
// name is resolved now) or "oscquery:GLOB". An entry that is neither is a
// one-line error naming it.
func NewTargets(list []string) (*Targets, error) {
	t := &Targets{found: map[string]netip.AddrPort{}}
	for _, s := range list {
		if err := CheckTarget(s); err != nil {
			return nil, fmt.Errorf("osc: target %q: %w", s, err)
		}
		if glob, ok := strings.CutPrefix(s, OSCQueryTarget); ok {
			t.patterns = append(t.patterns, glob)
			continue
		}
		ap, err := resolveTarget(s)
		if err != nil {
			return nil, err
		}
		t.fixed = append(t.fixed, ap)
	}
	t.publish()
	return t, nil
}

// CheckTarget reports, without looking anything up, whether s is a
// destination NewTargets can read: "host:port" with a port 1-65535, or
// "oscquery:" and a valid glob. Its error says what to write, for the
// caller to name the key.
func CheckTarget(s string) error {
	if glob, ok := strings.CutPrefix(s, OSCQueryTarget); ok {
		if _, err := path.Match(glob, ""); glob == "" || err != nil {
			return errors.New("want oscquery: and a glob of OSCQuery instance names, such as oscquery:VRChat-Client-*")
		}
		return nil
	}
	host, port, err := net.SplitHostPort(s)
	if p, perr := strconv.Atoi(port); err != nil || perr != nil || p < 1 || p > 65535 || host == "" {
		return errors.New("want host:port with a port 1-65535, such as 127.0.0.1:9000, or oscquery:GLOB")
	}
	return nil
}

// Patterns returns the globs of the OSCQuery services the profile sends
// to, without "oscquery:".
func (t *Targets) Patterns() []string { return slices.Clone(t.patterns) }

// waiter is a service found beyond the caps.
type waiter struct {
	instance string
	ap       netip.AddrPort
	glob     int
}

// Found says an OSCQuery service instance is at ap (it appeared, or
// moved). It is ignored unless the instance's name matches one of the
// patterns; beyond the caps it waits (Waiting).
func (t *Targets) Found(instance string, ap netip.AddrPort) {
	g := t.glob(instance)
	if g < 0 || !ap.IsValid() {
		return
	}
	ap = netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())
	t.mu.Lock()
	defer t.mu.Unlock()
	if old, ok := t.found[instance]; ok {
		if old != ap {
			t.found[instance] = ap
			t.publish()
		}
		return
	}
	if i := t.waiter(instance); i >= 0 {
		t.waiting[i].ap = ap
		return
	}
	if t.admits(g) {
		t.found[instance] = ap
		*t.count(g)++
		t.publish()
		return
	}
	t.leftOut.Add(1)
	if len(t.waiting) == maxWaiting {
		t.waiting = slices.Delete(t.waiting, 0, 1)
	}
	t.waiting = append(t.waiting, waiter{instance, ap, g})
}

// Lost says an OSCQuery service instance went away; the first waiting
// one the caps now admit takes its place.
func (t *Targets) Lost(instance string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if i := t.waiter(instance); i >= 0 {
		t.waiting = slices.Delete(t.waiting, i, i+1)
		return
	}
	if _, ok := t.found[instance]; !ok {
		return
	}
	delete(t.found, instance)
	*t.count(t.glob(instance))--
	for i := 0; i < len(t.waiting); i++ {
		if w := t.waiting[i]; t.admits(w.glob) {
			t.found[w.instance] = w.ap
			*t.count(w.glob)++
			t.waiting = slices.Delete(t.waiting, i, i+1)
			break
		}
	}
	t.publish()
}

// Waiting reports whether instance was found but is not sent to: the
// caps are full.
func (t *Targets) Waiting(instance string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.waiter(instance) >= 0
}

// LeftOut counts the services that were found beyond the caps.
func (t *Targets) LeftOut() uint64 { return t.leftOut.Load() }

// admits reports whether one more service of pattern g fits the caps;
// t.mu is held.
func (t *Targets) admits(g int) bool {
	return *t.count(g) < MaxFoundPerGlob && len(t.found) < MaxFound
}

// count is the number of services of pattern g sent to; t.mu is held.
func (t *Targets) count(g int) *int {
	for len(t.perGlob) < len(t.patterns) {
		t.perGlob = append(t.perGlob, 0)
	}
	return &t.perGlob[g]
}

// waiter returns instance's index in the waiting list, or -1; t.mu is
// held.
func (t *Targets) waiter(instance string) int {
	return slices.IndexFunc(t.waiting, func(w waiter) bool { return w.instance == instance })
}

// Addrs returns the current destinations, each once: the fixed ones in
// the configuration's order, then those found, by instance name. The
// slice is never changed; it allocates nothing. A nil Targets has none.
func (t *Targets) Addrs() []netip.AddrPort {
	if t == nil {
		return nil
	}
	return *t.addrs.Load()
}

// glob returns the index of the first pattern instance matches, or -1.
func (t *Targets) glob(instance string) int {
	return slices.IndexFunc(t.patterns, func(p string) bool { return MatchInstance(p, instance) })
}

// MatchInstance reports whether an OSCQuery service's instance name
// matches glob (path.Match's syntax: "VRChat-Client-*"), ignoring case,
// as DNS-SD compares names (RFC 6763 section 4.1). A malformed glob
// matches nothing.
func MatchInstance(glob, instance string) bool {
	ok, _ := path.Match(strings.ToLower(glob), strings.ToLower(instance))
	return ok
}

// publish stores a new list of destinations; t.mu is held (or t is not
// yet shared).
func (t *Targets) publish() {
	out := make([]netip.AddrPort, 0, len(t.fixed)+len(t.found))
	for _, ap := range t.fixed {
		if !slices.Contains(out, ap) {
			out = append(out, ap)
		}
	}
	names := make([]string, 0, len(t.found))
	for name := range t.found {
		names = append(names, name)
	}
	slices.SortFunc(names, cmp.Compare)
	for _, name := range names {
		if ap := t.found[name]; !slices.Contains(out, ap) {
			out = append(out, ap)
		}
	}
	t.addrs.Store(&out)
}
