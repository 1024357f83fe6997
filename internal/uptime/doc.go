// Package uptime reads the monotonic clock as the time since the process
// started: the clock of every lease, timeout and rate limit.
//
// Setting the system's wall clock (by hand, NTP stepping it, a suspended
// machine's clock catching up) does not move it.
//
// Sources: the time package's "Monotonic Clocks" (a time.Time from
// time.Now carries a monotonic reading that Sub and Since use, and that
// Round(0), UnixNano and serialization strip); clock_gettime(2) on
// CLOCK_MONOTONIC.
package uptime
