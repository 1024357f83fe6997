package profile

import (
	"time"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
)

// Profile is an output profile as the registry holds it: what an
// [[osc.profile]] table naming it may say, and how the profile reads it.
type Profile interface {
	// Name is what a table's name key says to choose the profile.
	Name() string
	// Keys are the profile's own keys in its table, besides name, targets
	// and coords (vrchat's "rate_hz"); nil: none.
	Keys() []string
	// DefaultTargets are where the profile sends when its table names no
	// targets (its app's port on this machine); nil: the table must.
	DefaultTargets() []string
	// Coords returns the coordinates the profile sends in when its table's
	// coords key is coords ("" when left out), or an error naming the key
	// ("coords = \"ros\": ..."). A profile that sends no positions or
	// rotations returns the zero Convention (its Name is "").
	Coords(coords string) (geom.Convention, error)
	// Configure reads a table's settings, its own keys checked: an error
	// names the key at fault as the table has it ("rate_hz = 500: want
	// ...").
	Configure(s Settings) (Config, error)
}

// Settings are an [[osc.profile]] table's, as its profile reads them.
type Settings struct {
	// Coords is what the profile's Coords returned.
	Coords geom.Convention
	// Keys are the profile's own keys the table sets (each one of its
	// Keys).
	Keys Keys
	// Hands are the daemon's hands' names, in order.
	Hands []string
}

// Config is a profile configured by one table.
type Config interface {
	// Methods describe what the profile sends for a hand, in the order a
	// frame holds them ({prefix} and {hand} as osc.Method has them): its
	// contract, which the daemon's OSCQuery tree holds unless the Config
	// is a Tree.
	Methods() []osc.Method
	// Open returns the profile's output for one run of the daemon.
	Open(r Run) Output
}

// Tree is a Config whose part of the OSCQuery tree is not its contract:
// the vrchat profile's avatar parameters are VRChat's address space,
// which VRChat sends all of to any app whose tree holds /avatar.
type Tree interface {
	// TreeMethods are the methods the tree holds (nil: none).
	TreeMethods() []osc.Method
}

// TreeMethods returns what c puts in the OSCQuery tree: its Methods,
// unless it is a Tree.
func TreeMethods(c Config) []osc.Method {
	if t, ok := c.(Tree); ok {
		return t.TreeMethods()
	}
	return c.Methods()
}

// Run is one run of the daemon, as an Output sees it.
type Run struct {
	// Start is when the service started, which a profile's clock counts
	// from: a reload keeps it, so that the clock never goes back.
	Start time.Time
	// Opened is when this run opened: Start, or the reload's time.
	Opened time.Time
	// Prefix is osc.prefix.
	Prefix string
	// Hands are the hands' names ([[hand]] name), in order: a hand's
	// index is its number in Output's methods.
	Hands []string
	// Band is frame.proximity_m, the near band (m).
	Band float64
}

// Output is a configured profile sending for one daemon run. An Output
// that is also a sync.Locker shares state between its hands (vmc's
// performer: one time that never goes back): the daemon holds its lock
// across the making and the sending of each of its bundles, frames and
// statuses alike, so that they leave in the order they were made.
type Output interface {
	// Hand returns hand i's frame encoder, built from the hand's model
	// once its glove has opened; the hand's frame loop alone uses it.
	Hand(i int, model *handmodel.Hand) Encoder
	// Status adds hand i's state to w, which the daemon has begun as a
	// bundle stamped s.Now; a profile without a state adds nothing. It
	// allocates nothing.
	Status(w *osc.Writer, i int, s Status)
}

// Encoder encodes one hand's frames in a profile.
type Encoder interface {
	// Frame begins w and encodes f, the hand's frame of a sample taken at
	// time at: bundles stamped at, bare messages, or nothing (between
	// ticks). Once its buffers have grown it allocates nothing.
	Frame(w *osc.Writer, f *osc.Frame, at time.Time)
}

// Status is a hand's state as the daemon sends it to a profile's
// targets: when it changes, at least once a second, and after a frame
// when due or when it is one without live poses.
type Status struct {
	// State is the hand's status (osc.Methods' <prefix>/<hand>/status:
	// streaming, no-glove, reconnecting, stalled, replay, ended,
	// reloading).
	State string
	// Tracked says the hand has live poses: its glove streams (degraded
	// or not) or its replay plays.
	Tracked bool
	// Now is when it is sent.
	Now time.Time
	// Framed says the hand's frame has just gone out in the profile,
	// carrying State where the profile's frames carry one (gloved's own
	// carries it when due).
	Framed bool
}
