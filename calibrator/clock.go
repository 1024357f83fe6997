package calibrator

import "time"

// Clock is what the holds are timed by: when a window of samples opens
// and closes, and when each sample arrived. A session runs on the wall
// clock; a test gives a clock its glove advances, so that a hold holds
// the same samples however loaded the machine is.
type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

// wallClock is the wall clock, Opts.Clock's default.
type wallClock struct{}

func (wallClock) Now() time.Time                         { return time.Now() }
func (wallClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
