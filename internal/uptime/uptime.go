package uptime

import "time"

// start is when the process started, with its monotonic reading.
var start = time.Now()

// Now returns how long the process has run, on the monotonic clock.
func Now() time.Duration { return time.Since(start) }
