package session

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gloved/gloved/devices/driver"
)

// TestEveryDriversKeysAreHandKeys: the keys a driver documents are keys a
// [[hand]] has (a Spec's), or its own options.
func TestEveryDriversKeysAreHandKeys(t *testing.T) {
	keys := map[string]bool{}
	st := reflect.TypeFor[Spec]()
	for i := range st.NumField() {
		keys[st.Field(i).Tag.Get("toml")] = true
	}
	for _, d := range driver.All() {
		for _, k := range d.Keys {
			if !keys[k.Name] && !strings.HasPrefix(k.Name, "options.") {
				t.Errorf("%s documents key %q, which no [[hand]] has", d.Name, k.Name)
			}
		}
	}
}
