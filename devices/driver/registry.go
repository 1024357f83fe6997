package driver

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/gloved/gloved/configs"
)

// The registry: every driver linked into the program, by name.
var (
	mu      sync.RWMutex
	drivers = map[string]*Driver{}
)

// Register makes a driver known by its name. A driver package calls it
// from its init; a driver without a name, open function or layouts (bar
// a replay), or one whose name is taken, is a programming error and
// panics.
func Register(d *Driver) {
	if err := d.check(); err != nil {
		panic("driver: " + err.Error())
	}
	mu.Lock()
	defer mu.Unlock()
	if _, dup := drivers[d.Name]; dup {
		panic("driver: " + d.Name + " registered twice")
	}
	drivers[d.Name] = d
}

// check reports what makes a driver unusable.
func (d *Driver) check() error {
	switch {
	case d.Name == "" || strings.ContainsAny(d.Name, " \t\"=.") || strings.ToLower(d.Name) != d.Name:
		return fmt.Errorf("driver name %q: want a lower-case word", d.Name)
	case d.Open == nil:
		return fmt.Errorf("%s has no open function", d.Name)
	case len(d.Layouts) == 0 && !d.Replays:
		return fmt.Errorf("%s has no sensor layout", d.Name)
	case d.Probe != nil && !d.Serial:
		return fmt.Errorf("%s probes a port but is not a serial glove", d.Name)
	}
	for _, l := range d.Layouts {
		if err := l.Check(); err != nil {
			return fmt.Errorf("%s: %w", d.Name, err)
		}
	}
	if d.Sensors != 0 {
		if _, err := d.Layout(d.Sensors); err != nil {
			return fmt.Errorf("%s: default %w", d.Name, err)
		}
	}
	return nil
}

// Lookup returns the driver of that name; its error names the device key
// and the drivers there are.
func Lookup(name string) (*Driver, error) {
	mu.RLock()
	d, ok := drivers[name]
	mu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("device = %q: want %s", name, configs.List(Names(), "or"))
	}
	return d, nil
}

// All returns every registered driver, by name.
func All() []*Driver {
	mu.RLock()
	defer mu.RUnlock()
	all := make([]*Driver, 0, len(drivers))
	for _, d := range drivers {
		all = append(all, d)
	}
	slices.SortFunc(all, func(a, b *Driver) int { return strings.Compare(a.Name, b.Name) })
	return all
}

// Names returns the registered drivers' names, sorted.
func Names() []string {
	return Select(func(*Driver) bool { return true })
}

// Select returns the names of the drivers for which keep is true, sorted.
func Select(keep func(*Driver) bool) []string {
	var names []string
	for _, d := range All() {
		if keep(d) {
			names = append(names, d.Name)
		}
	}
	return names
}

// OrList says which drivers keep selects, as messages list them: "a, b
// or c".
func OrList(keep func(*Driver) bool) string { return configs.List(Select(keep), "or") }
