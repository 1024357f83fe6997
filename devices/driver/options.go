package driver

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/gloved/gloved/configs"
)

// Options are a driver's own keys: a hand's options table ([hand.options]
// in a daemon config, --option KEY=VALUE on the command line), for what
// the common keys do not say. The driver decodes them into a struct of
// its own (Decode), so that a new driver brings new keys without a change
// anywhere else.
type Options map[string]any

// UnmarshalTOML takes the options table as it is; its keys are checked
// by the driver they are for.
func (o *Options) UnmarshalTOML(v any) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("options: want a table of the glove's own keys, got %T", v)
	}
	*o = m
	return nil
}

// Decode decodes the options into v (a pointer to a struct with toml
// tags) as strictly as a config file is read: a key v does not have, or a
// value of the wrong type, is an error naming it ("options: unknown key
// wav").
func (o Options) Decode(v any) error {
	if len(o) == 0 {
		return nil
	}
	var b bytes.Buffer
	if err := toml.NewEncoder(&b).Encode(map[string]any(o)); err != nil {
		return fmt.Errorf("options: %w", err)
	}
	if err := configs.Decode("options", b.Bytes(), v); err != nil {
		// A line number would be the re-encoded table's, not the config's.
		return errors.New(lineNumber.ReplaceAllString(err.Error(), "options: $1"))
	}
	return nil
}

var lineNumber = regexp.MustCompile(`^options: (toml: )?line \d+:? `)

// Set adds KEY=VALUE to the options (flag.Value, for --option): VALUE is
// read as a TOML value (5, 0.5, true, "text", [1, 2]) when it is one,
// else taken as a string (sine).
func (o *Options) Set(kv string) error {
	key, value, ok := strings.Cut(kv, "=")
	key = strings.TrimSpace(key)
	if !ok || key == "" {
		return fmt.Errorf("want KEY=VALUE, got %q", kv)
	}
	var v struct{ V any }
	if _, err := toml.Decode("V = "+value, &v); err != nil {
		v.V = value
	}
	if *o == nil {
		*o = Options{}
	}
	(*o)[key] = v.V
	return nil
}

// String lists the options as KEY=VALUE, sorted (flag.Value).
func (o *Options) String() string {
	if o == nil {
		return ""
	}
	keys := slices.Sorted(maps.Keys(*o))
	for i, k := range keys {
		keys[i] = fmt.Sprintf("%s=%v", k, (*o)[k])
	}
	return strings.Join(keys, " ")
}
