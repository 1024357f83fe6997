package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// maxRecordAge is the longest a record may take from the emulator's write
// to the driver and still be paired with a frame: beyond it (two record
// periods) the write before the frame's timetag is taken to be another
// record's, and the frame is counted unmatched.
const maxRecordAge = 20 * time.Millisecond

// latencyStats summarises one leg of the path, in microseconds.
type latencyStats struct {
	P50  float64 `json:"p50_us"`
	P99  float64 `json:"p99_us"`
	P999 float64 `json:"p999_us"`
	Max  float64 `json:"max_us"`
}

// latencyResult is what gloved bench latency reports: the whole path from
// the emulator's write of a record to the frame bundle made from it
// leaving the daemon (its datagram in the receiving socket), and its two
// legs, split at the frame's timetag; and, outside the path, this
// receiving process's own wake-up.
type latencyResult struct {
	Frames    int          `json:"frames"`
	Unmatched int          `json:"unmatched"` // frames with no record write to pair with
	Dropped   int          `json:"dropped"`   // records written among the measured ones that gave no frame
	Total     latencyStats `json:"total"`     // record written -> datagram out
	Pty       latencyStats `json:"pty"`       // record written -> bytes at the driver (the timetag)
	Daemon    latencyStats `json:"daemon"`    // timetag -> datagram out: frame, encoding, UDP send
	Receiver  latencyStats `json:"receiver"`  // datagram out -> read by the receiving process (not in total)
	// Servo, with an OpenGloves glove and force feedback: a frame whose
	// forces changed (a touch begun or ended, a limit moved) -> its
	// servo line read by the glove.
	Servo *servoLatency `json:"servo,omitempty"`
}

// servoLatency is the leg from a contact's frame (its timetag: the
// sample's bytes at the driver) to the glove reading the servo line of
// that frame's forces: the frame, the line queued, written after the
// glove's next line (the firmware reads one line after each of its own),
// and the pty.
type servoLatency struct {
	latencyStats
	Changes   int `json:"changes"`   // frames whose forces changed
	Unmatched int `json:"unmatched"` // of them, no servo line of their values within maxServoAge
}

// maxServoAge is the longest from a frame to its servo line for them to
// be paired: beyond it (ten line periods) the line is taken to be
// another frame's.
const maxServoAge = 100 * time.Millisecond

// matchServo pairs each frame whose servo values changed from the
// frame before with the first servo line (lines ascending in time) read
// at or after its timetag that sets the same values, each within 1 (a
// float32 force rounded), and summarises the time between.
func matchServo(frames []frameTimes, lines []servoRead) *servoLatency {
	var d []time.Duration
	res := &servoLatency{}
	for i := 1; i < len(frames); i++ {
		f := &frames[i]
		if f.Servo == frames[i-1].Servo {
			continue
		}
		res.Changes++
		k, _ := slices.BinarySearchFunc(lines, f.Timetag, func(l servoRead, t time.Time) int { return l.At.Compare(t) })
		for ; k < len(lines) && lines[k].At.Sub(f.Timetag) <= maxServoAge; k++ {
			if sameServo(lines[k].V, f.Servo) {
				break
			}
		}
		if k == len(lines) || lines[k].At.Sub(f.Timetag) > maxServoAge {
			res.Unmatched++
			continue
		}
		d = append(d, lines[k].At.Sub(f.Timetag))
	}
	res.latencyStats = summarise(d)
	return res
}

func sameServo(a, b [5]int) bool {
	for f := range a {
		if a[f]-b[f] > 1 || b[f]-a[f] > 1 {
			return false
		}
	}
	return true
}

// servoRead is a line of `gloved emulate --servo-log`: when the glove
// read it, and its five values.
type servoRead struct {
	At time.Time
	V  [5]int
}

// readServoLog reads the emulator's servo log.
func readServoLog(path string) ([]servoRead, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("bench latency: the emulator's servo lines: %w", err)
	}
	defer f.Close()
	var out []servoRead
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w := strings.Fields(sc.Text())
		var l servoRead
		if len(w) != 6 {
			return nil, fmt.Errorf("bench latency: %s line %d: want a time and five values, got %q", path, len(out)+1, sc.Text())
		}
		ns, err := strconv.ParseInt(w[0], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("bench latency: %s line %d: want a time and five values, got %q", path, len(out)+1, sc.Text())
		}
		for k := range l.V {
			if l.V[k], err = strconv.Atoi(w[1+k]); err != nil {
				return nil, fmt.Errorf("bench latency: %s line %d: %w", path, len(out)+1, err)
			}
		}
		l.At = time.Unix(0, ns)
		out = append(out, l)
	}
	return out, sc.Err()
}

// matchLatency pairs each frame with the last record write at or before
// its timetag (writes ascending) and summarises the legs. A write between
// the first and the last paired ones that no frame took counts dropped.
func matchLatency(writes []time.Time, frames []frameTimes) latencyResult {
	var total, pty, daemon, receiver []time.Duration
	res := latencyResult{}
	first, last := len(writes), -1
	for _, f := range frames {
		i, found := slices.BinarySearchFunc(writes, f.Timetag, func(w, t time.Time) int { return w.Compare(t) })
		if !found {
			i-- // the last write before the timetag
		}
		if i < 0 || f.Timetag.Sub(writes[i]) > maxRecordAge || f.Out.Before(f.Timetag) {
			res.Unmatched++
			continue
		}
		first, last = min(first, i), max(last, i)
		w := writes[i]
		total = append(total, f.Out.Sub(w))
		pty = append(pty, f.Timetag.Sub(w))
		daemon = append(daemon, f.Out.Sub(f.Timetag))
		receiver = append(receiver, f.Arrival.Sub(f.Out))
	}
	res.Frames = len(total)
	res.Dropped = max(0, last-first+1-res.Frames)
	res.Total, res.Pty, res.Daemon, res.Receiver = summarise(total), summarise(pty), summarise(daemon), summarise(receiver)
	return res
}

// summarise returns the percentiles of d (zero if empty).
func summarise(d []time.Duration) latencyStats {
	if len(d) == 0 {
		return latencyStats{}
	}
	slices.Sort(d)
	at := func(q float64) float64 {
		return float64(d[min(len(d)-1, int(q*float64(len(d))))].Nanoseconds()) / 1e3
	}
	return latencyStats{P50: at(0.5), P99: at(0.99), P999: at(0.999), Max: float64(d[len(d)-1].Nanoseconds()) / 1e3}
}

// readStamps reads the emulator's write times (Unix ns, one per line).
func readStamps(path string) ([]time.Time, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("bench latency: the emulator's write times: %w", err)
	}
	defer f.Close()
	var out []time.Time
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		ns, err := strconv.ParseInt(sc.Text(), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("bench latency: %s line %d: %w", path, len(out)+1, err)
		}
		out = append(out, time.Unix(0, ns))
	}
	return out, sc.Err()
}

func (r *latencyResult) print(out io.Writer, scene string) {
	fmt.Fprintf(out, "glove record written (emulator process) -> OSC frame out of the daemon (its own process), received here\n")
	fmt.Fprintf(out, "%s, %d frames measured, %d unmatched, %d records dropped\n", scene, r.Frames, r.Unmatched, r.Dropped)
	fmt.Fprintf(out, "%-38s %9s %9s %9s %9s\n", "", "p50 us", "p99 us", "p99.9 us", "max us")
	for _, row := range []struct {
		name string
		s    latencyStats
	}{
		{"total", r.Total},
		{"pty (write -> driver)", r.Pty},
		{"daemon + UDP (driver -> datagram out)", r.Daemon},
		{"receiver wake-up (not in total)", r.Receiver},
	} {
		fmt.Fprintf(out, "%-38s %9.0f %9.0f %9.0f %9.0f\n", row.name, row.s.P50, row.s.P99, row.s.P999, row.s.Max)
	}
	if s := r.Servo; s != nil {
		fmt.Fprintf(out, "%-38s %9.0f %9.0f %9.0f %9.0f\n", "contact frame -> servo line at glove", s.P50, s.P99, s.P999, s.Max)
		fmt.Fprintf(out, "(%d frames changed the forces, %d found no servo line of theirs within %v)\n", s.Changes, s.Unmatched, maxServoAge)
	}
}
