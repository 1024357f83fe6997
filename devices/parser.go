package devices

// Parser splits a glove's byte stream into records: a driver feeds it
// what its port gave and takes samples out, and a replay feeds it the
// same bytes from a recording, so that a replay yields what the live
// driver did.
type Parser interface {
	// Feed appends bytes read from the port.
	Feed(b []byte)
	// Next decodes the next record into s (its readings, angles,
	// resolution, glove time and status; the caller sets Time and Seq).
	// On GotError the error is one the glove sent (a *GloveError), valid
	// until the next call.
	Next(s *Sample) (Event, error)
	// Reset forgets buffered bytes and the lock, as after reopening a port.
	Reset()
	// Buffered returns how many unparsed bytes are held.
	Buffered() int
}

// Event is what a parser's Next found.
type Event uint8

const (
	// NeedMore: no complete record is buffered yet.
	NeedMore Event = iota
	// GotSample: a record was decoded into the sample.
	GotSample
	// GotError: the glove sent an error instead of a record; Next returns it.
	GotError
)
