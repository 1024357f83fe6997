package main

import (
	"regexp"
	"strings"

	"github.com/gloved/gloved/daemon"
)

// replayKey is a config key gloved replay's flag sets in the daemon it
// builds (daemon.ReplayOpts): key, and key = "value" as the config's
// errors write it.
type replayKey struct {
	key, valued *regexp.Regexp
	flag        string
}

func newReplayKey(key, flag string) replayKey {
	return replayKey{regexp.MustCompile(key), regexp.MustCompile(key + ` = "((?:[^"\\]|\\.)*)"`), flag}
}

// replayKeys are replay's flags' keys: an error the daemon says of a key
// is said of the flag the user gave (`--speed 0`, not `hand[0].speed =
// "0"`), as record's flag errors are (flagSpec). --profile is left as
// osc.profile[N-1], as its help says.
var replayKeys = []replayKey{
	newReplayKey(`hand\[0\]\.speed`, "--speed"),
	newReplayKey(`osc\.listen`, "--listen"),
	newReplayKey(`osc\.targets(?:\[\d+\])?`, "--target"),
	newReplayKey(`frame\.proximity_m`, "--proximity"),
	newReplayKey(`view\.listen`, "--view"),
}

// flagNamed is err with each of replay's keys named by its flag: `KEY =
// "V"` as `--flag V`, the key alone as `--flag`, and without the
// "config: " a flag is not. It wraps err: its exit code stays.
func flagNamed(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	for _, k := range replayKeys {
		msg = k.valued.ReplaceAllString(msg, k.flag+" $1")
		msg = k.key.ReplaceAllString(msg, k.flag)
	}
	if msg == err.Error() {
		return err
	}
	return &renamed{msg: strings.TrimPrefix(msg, daemon.ErrConfig.Error()+": "), err: err}
}

// renamed is an error said in other words.
type renamed struct {
	msg string
	err error
}

func (r *renamed) Error() string { return r.msg }
func (r *renamed) Unwrap() error { return r.err }
