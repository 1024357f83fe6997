package session

import "fmt"

// A KeyError is a Spec value that cannot run, named by its config key:
// `baud = 1: ...` in a config, and `--baud 1: ...` where a command took it
// from a flag of the same name (Flag).
type KeyError struct {
	Key   string
	Value any
	Err   error
}

func (e *KeyError) Error() string {
	if s, ok := e.Value.(string); ok {
		return fmt.Sprintf("%s = %q: %v", e.Key, s, e.Err)
	}
	return fmt.Sprintf("%s = %v: %v", e.Key, e.Value, e.Err)
}

func (e *KeyError) Unwrap() error { return e.Err }

// Flag is the error as a command's flag --Key gave the value.
func (e *KeyError) Flag() string {
	if e.Value == "" { // given empty: shown as such, not as no value
		return fmt.Sprintf("--%s \"\": %v", e.Key, e.Err)
	}
	return fmt.Sprintf("--%s %v: %v", e.Key, e.Value, e.Err)
}

// keyError returns a KeyError of key and value with the message format
// makes of args.
func keyError(key string, value any, format string, args ...any) error {
	return &KeyError{Key: key, Value: value, Err: fmt.Errorf(format, args...)}
}
