package devices

import (
	"errors"
	"fmt"
	"time"
)

// Device is a glove: Read blocks until the next sample and fills s; Close
// releases it and makes a blocked Read return ErrClosed. The owner of a
// device closes it.
type Device interface {
	Read(s *Sample) error
	Close() error
}

// Info is the optional ability to describe the glove.
type Info interface {
	GloveInfo() GloveInfo
}

// Clock is the optional ability to say when Sample.Time was zero, so that
// sample times can be turned into wall-clock times (OSC timetags).
type Clock interface {
	Epoch() time.Time
}

// FaultCounter is the optional ability to report fault counters.
type FaultCounter interface {
	Faults() Faults
}

// Sender is the optional ability to send a line to the glove over its
// port (an OpenGloves glove's force feedback and haptic lines): queued,
// and written when the glove listens. It allocates nothing.
type Sender interface {
	Send(line []byte) error
}

// GloveInfo describes a connected glove.
type GloveInfo struct {
	Model   string // "cyberglove", "cyberglove3", "sim", "replay"
	Sensors int
	Right   bool
	// Assumed: the unit answered no queries, so Sensors and Right are the
	// configuration's, not the unit's word.
	Assumed bool
	// Rate is the samples a second the glove was set to send over its
	// line, against which the daemon measures what arrives; 0 where no
	// line can lose them (a simulation, a replay).
	Rate float64
}

// Hand returns "right" or "left".
func (g GloveInfo) Hand() string {
	if g.Right {
		return "right"
	}
	return "left"
}

// Faults counts what went wrong on a device since it was opened.
type Faults struct {
	BadFrames    uint64 // records rejected by their framing
	Resyncs      uint64 // times the parser lost and regained the record boundary
	SkippedBytes uint64 // bytes discarded while resynchronising
	ErrorTails   uint64 // records answered with an 'e' error tail
	NoGlove      uint64 // 'e' 'g' tails: glove unplugged from the unit
	Reconnects   uint64 // successful reopenings of the port
	OpenFailures uint64 // failed attempts to (re)open the port
	Timeouts     uint64 // reads that waited a whole sample period in vain
	// OutOfRange counts sensor values a well-framed record carried outside
	// the documented range (a CyberGlove III's 0 or 4095), clamped to it;
	// an OpenGloves line with a value above the glove's maximum is instead
	// rejected whole (and counted as a bad frame too).
	OutOfRange uint64
	// UnknownKeys counts keys a text protocol's line carried that the
	// driver does not know (an OpenGloves glove's newer firmware), skipped.
	UnknownKeys uint64
	// DroppedReplies counts lines a driver that answers each of the
	// glove's lines (OpenGloves) did not write because the line's output
	// was full: the glove reads nothing it is sent.
	DroppedReplies uint64
	// Denied counts datagrams a network tracker dropped because they came
	// from a source neither loopback nor in osc.allow.
	Denied uint64
}

// Transient errors: Read returned without a sample, but the device is alive
// and the next Read tries again. Callers count and report them and carry on.
var (
	// ErrNoGlove: the interface unit reports the glove unplugged ('e' 'g').
	ErrNoGlove = errors.New("devices: glove not plugged into the interface unit")
	// ErrDisconnected: the port is gone (USB unplug, hangup); Read is
	// reopening it with backoff.
	ErrDisconnected = errors.New("devices: port disconnected, reopening")
	// ErrTimeout: no record arrived within the read deadline.
	ErrTimeout = errors.New("devices: no record within the deadline")
	// ErrRefused: records arrived within the read deadline, but each was
	// refused (malformed, or a value out of range) and counted in Faults:
	// the device is not silent, its data is unusable.
	ErrRefused = errors.New("devices: records arrive, but each is refused (malformed or out of range)")
)

// RefusedError is ErrRefused with what the driver can tell of why (a
// setting that does not fit the glove, say), for the log.
type RefusedError struct {
	Why string
}

func (e *RefusedError) Error() string {
	return "devices: records arrive, but each is refused: " + e.Why
}

// Unwrap makes errors.Is(err, ErrRefused) hold.
func (e *RefusedError) Unwrap() error { return ErrRefused }

// ErrClosed is returned by Read after Close.
var ErrClosed = errors.New("devices: device closed")

// ErrEnd is returned by a replay device after its last sample.
var ErrEnd = errors.New("devices: end of recording")

// Transient reports whether err leaves the device usable.
func Transient(err error) bool {
	return errors.Is(err, ErrNoGlove) || errors.Is(err, ErrDisconnected) || errors.Is(err, ErrTimeout) || errors.Is(err, ErrRefused) || errors.As(err, new(*GloveError))
}

// GloveError is an error tail the unit sent instead of a record.
type GloveError struct {
	Codes []byte // the code after each 'e'
}

func (e *GloveError) Error() string {
	var desc []string
	for _, c := range e.Codes {
		desc = append(desc, fmt.Sprintf("'%c' (%s)", c, errorCodeMeaning(c)))
	}
	return fmt.Sprintf("devices: glove error %v", desc)
}

func errorCodeMeaning(c byte) string {
	switch c {
	case '?':
		return "unknown command"
	case 'n':
		return "bad or too many numbers"
	case 's':
		return "sampling too fast"
	case 'y':
		return "sync too fast"
	case 'g':
		return "glove not plugged in"
	}
	return "undocumented code"
}
