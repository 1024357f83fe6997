// Package recordingtest writes recordings for tests. Stamped records a
// simulated glove's samples at the times a test chooses (gaps, a clock
// that jumps) and returns each record's byte offset, as a reader reports
// it.
//
// Source: the recording format (package recording).
package recordingtest
