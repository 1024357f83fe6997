package recording

import (
	"errors"
	"fmt"
	"time"
)

// MaxGap is the longest time a recording may leave between one record and
// the next (and before its first). A glove's records are milliseconds
// apart; a longer gap is a damaged clock (a record stamped 2^63-1 ns), or
// a glove away for that long, which a replay need not wait out either.
const MaxGap = 10 * time.Second

// ErrJump marks a record whose time jumps: more than MaxGap after the
// record before it, or before it.
var ErrJump = errors.New("recording: the recording's clock jumps")

// Timeline is the time a recording plays at: the records' own times, with
// every jump taken out. It follows the records whose times are played
// (samples, raw bytes and port reopenings), not wrist poses. A record whose time jumps plays at the time of the
// record before it, and the records after it keep their distances from
// it, so a replay plays on at once instead of waiting out the jump (or
// forever).
type Timeline struct {
	last   time.Duration // the last record's time as recorded
	played time.Duration // and as played
}

// Next returns the time rec plays at, and, if its time jumps, an error
// wrapping ErrJump that names its byte offset.
func (tl *Timeline) Next(rec Record) (time.Duration, error) {
	// As unsigned, the difference of two times in order cannot overflow.
	if gap := uint64(rec.Time) - uint64(tl.last); rec.Time >= tl.last && gap <= uint64(MaxGap) {
		tl.last, tl.played = rec.Time, tl.played+time.Duration(gap)
		return tl.played, nil
	}
	err := fmt.Errorf("%w: the record at byte %d is stamped %v, %s (a gap over %v is a damaged clock or a glove away): it plays right after that record",
		ErrJump, rec.Offset, rec.Time, tl.jump(rec.Time), MaxGap)
	tl.last = rec.Time
	return tl.played, err
}

// jump says how t stands to the last record's time.
func (tl *Timeline) jump(t time.Duration) string {
	if t < tl.last {
		return fmt.Sprintf("before the record before it (%v)", tl.last)
	}
	return fmt.Sprintf("%v after the record before it", durationBetween(tl.last, t))
}

// durationBetween returns b - a for a <= b, saturated at the longest
// Duration.
func durationBetween(a, b time.Duration) time.Duration {
	if d := uint64(b) - uint64(a); d <= uint64(1<<63-1) {
		return time.Duration(d)
	}
	return time.Duration(1<<63 - 1)
}
