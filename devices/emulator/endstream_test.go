package emulator

import (
	"testing"
	"time"

	"github.com/gloved/gloved/devices/cyberglove/layout"
)

// TestEndStreamMakesNoMoreRecords: once the stream is ended no record is
// made, though the host asks for the stream again (S), and commands are
// still answered.
func TestEndStreamMakesNoMoreRecords(t *testing.T) {
	records := 0
	e, err := New(Opts{Sensors: 22, Source: func(time.Duration, *[layout.Slots]uint16) {}, OnRecord: func([]uint16) { records++ }})
	if err != nil {
		t.Fatal(err)
	}
	e.handle([]byte("S"))
	if rec := e.streamed(); len(rec) == 0 || records != 1 {
		t.Fatalf("streaming: record %q, %d reported", rec, records)
	}
	e.EndStream()
	e.handle([]byte("S"))
	if rec := e.streamed(); rec != nil || records != 1 {
		t.Errorf("after EndStream: record %q, %d reported; want none", rec, records)
	}
	if got := e.handle([]byte("?S")); len(got) == 0 {
		t.Error("after EndStream a query went unanswered")
	}
}
