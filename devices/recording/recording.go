package recording

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/internal/userfile"
)

// The recording format (version 1), all integers little-endian:
//
//	file   := magic header record*
//	magic  := "GLOVEREC" u16(version=1)
//	header := u32(n) n bytes of JSON (Header) u32(crc32 of the JSON)
//	record := u8(kind) i64(t, ns since the recording started) u32(n)
//	          n bytes of payload u32(crc32 of kind, t, n and payload)
//
// Kinds: 'R' the raw bytes as read from the serial port in one read (parsed
// on replay by the same Parser the live driver uses); 'X' the driver
// reopened the port and reset its parser (empty payload); 'S' one sample
// from a device without a byte stream: u8(sensors) u16(raw)... u8(status),
// then, for a sample of other than 8 bits or with joint angles,
// u8(bits) u8(angles) float64(angle)...; 'W' a wrist pose: 7 float64 (qw
// qx qy qz tx ty tz). CRC-32 is IEEE. A reader stops at the first record
// that is cut short or fails its checksum and reports where; everything
// before it replays.
//
// The header's model is the name of the glove's driver, which says how
// its raw bytes are read (driver.Driver's Parser); mode, status_byte and
// timestamp are a CyberGlove I/II's record settings, max an OpenGloves
// glove's full scale.

const (
	recMagic   = "GLOVEREC"
	recVersion = 1
	// maxRecordPayload bounds one record; longer is corruption.
	maxRecordPayload = 1 << 20
)

// Record kinds.
const (
	KindRaw    = 'R'
	KindReset  = 'X'
	KindSample = 'S'
	KindWrist  = 'W'
)

// Header describes a recording.
type Header struct {
	Format      string `json:"format"` // "gloved-recording"
	Model       string `json:"model"`  // the glove's driver: "cyberglove", "cyberglove3", "sim", ...
	Sensors     int    `json:"sensors"`
	Hand        string `json:"hand"` // "right" or "left"; "" reads as right
	Mode        string `json:"mode"` // "stream" or "poll" (how raw bytes were asked for)
	StatusByte  bool   `json:"status_byte"`
	Timestamp   bool   `json:"timestamp"`
	Source      string `json:"source"`      // port or motion
	Created     string `json:"created"`     // RFC 3339; may be left out (Epoch)
	Calibration string `json:"calibration"` // the calibration TOML in force
	// Max is an OpenGloves glove's full scale (1023 or 4095), which its
	// lines do not say; 0 for every other glove.
	Max int `json:"max,omitempty"`
}

// check reports a header no glove writes: no model, a sensor count no
// sample holds, a hand other than right, left or none (read as right), or
// a creation time that is not RFC 3339 (none is allowed: Epoch). Every
// reader of a recording runs it (NewReader), and Create. (Whether a
// driver of that model is there to read it is the replay's to say.)
func (h *Header) check() error {
	if h.Model == "" {
		return errors.New("header: no glove model")
	}
	if h.Sensors < 0 || h.Sensors > devices.MaxReadings {
		return fmt.Errorf("header: %d sensors: a sample holds 0 to %d", h.Sensors, devices.MaxReadings)
	}
	if h.Hand != "" && h.Hand != "right" && h.Hand != "left" {
		return fmt.Errorf("header: hand %q: a recording's hand is \"right\" or \"left\" (none reads as right)", h.Hand)
	}
	if h.Created != "" {
		if _, err := time.Parse(time.RFC3339, h.Created); err != nil {
			return fmt.Errorf("header: created %q is not an RFC 3339 time (it may be left out)", h.Created)
		}
	}
	return nil
}

// Epoch is when the recording was created (a replay's OSC timetags count
// from it), or, for a header that does not say, the Unix epoch: a
// replay's timetags are the same every time either way.
func (h *Header) Epoch() time.Time {
	t, err := time.Parse(time.RFC3339, h.Created)
	if err != nil { // none: check refuses any other
		return time.Unix(0, 0).UTC()
	}
	return t
}

// ErrCorrupt marks a recording that ends in a damaged or cut-short record.
var ErrCorrupt = errors.New("recording damaged")

// Recorder writes a recording. Every record is flushed as it is written,
// so a crash loses at most the record being written; a record that
// cannot be written whole (a full disk) is taken off the file's end, so
// that the recording ends cleanly after the last record written.
type Recorder struct {
	f      *os.File
	w      *bufio.Writer
	buf    []byte
	sample []byte // WriteSample's payload, reused
	// size is the file's length up to the end of the last record
	// written whole.
	size int64
}

// Create creates path and writes the header. A recording already at path
// is kept, renamed NAME.1.EXT (or the first free number). A header that
// cannot be written (a full disk) leaves no file behind.
func Create(path string, h Header) (*Recorder, error) {
	h.Format = "gloved-recording"
	if h.Created == "" {
		h.Created = time.Now().UTC().Format(time.RFC3339)
	}
	if err := h.check(); err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	js, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	f, err := createKeeping(path)
	if err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	r := &Recorder{f: f, w: bufio.NewWriter(f)}
	b := append([]byte(recMagic), 0, 0)
	binary.LittleEndian.PutUint16(b[8:], recVersion)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(js)))
	b = append(b, js...)
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(js))
	if _, err = r.w.Write(b); err == nil {
		err = r.w.Flush()
	}
	if err != nil {
		r.Discard()
		return nil, fmt.Errorf("recording: %s: %w", userfile.Name(path), err)
	}
	r.size = int64(len(b))
	return r, nil
}

// Path is where the recording's file is now: where Create made it,
// unless another writer has since kept it aside (a second session
// creating the same path moves the file being written to NAME.1.EXT in
// its directory, and this one goes on writing it there). On a system
// without /proc/self/fd it is where Create made it.
func (r *Recorder) Path() string {
	name := r.f.Name()
	if fi, err := r.f.Stat(); err == nil {
		if at, err := os.Stat(name); err == nil && os.SameFile(fi, at) {
			return name // still where it was made
		}
	}
	if p, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", r.f.Fd())); err == nil && !strings.HasSuffix(p, " (deleted)") {
		return filepath.Join(filepath.Dir(name), filepath.Base(p)) // kept aside in its directory
	}
	return name
}

// Discard closes the recording and removes its file: a recording that
// could not start (its header, or its first record, not written) leaves
// nothing behind. Create made the file, so it is the recorder's own.
func (r *Recorder) Discard() error {
	at := r.Path() // where it is: kept aside by another writer, not the path's file
	r.f.Close()
	return os.Remove(at)
}

// createKeeping creates path, first moving a non-empty file already there
// to the first free NAME.N.EXT (N = 1, 2, ...): a recording is never
// truncated, by a second session, a restart or a reload.
func createKeeping(path string) (*os.File, error) {
	for range maxKeepAttempts {
		if err := keepExisting(path); err != nil {
			return nil, userfile.Named(err, path)
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if !errors.Is(err, fs.ErrExist) {
			return f, userfile.Named(err, path)
		}
		// Another writer created it meanwhile: keep that one too.
	}
	return nil, fmt.Errorf("%s: created by someone else %d times over", userfile.Name(path), maxKeepAttempts)
}

// maxKeepAttempts bounds createKeeping's retries when other writers race it.
const maxKeepAttempts = 3

// keepExisting moves a file at path aside to the first free NAME.N.EXT,
// or removes it if it is empty.
func keepExisting(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file", userfile.Name(path))
	case fi.Size() == 0:
		return os.Remove(path)
	}
	ext := filepath.Ext(path)
	base := strings.TrimSuffix(path, ext)
	for n := 1; ; n++ {
		kept := fmt.Sprintf("%s.%d%s", base, n, ext)
		_, err := os.Lstat(kept)
		if errors.Is(err, fs.ErrNotExist) {
			return os.Rename(path, kept)
		}
		if err != nil {
			return err
		}
	}
}

func (r *Recorder) write(kind byte, t time.Duration, payload []byte) error {
	b := append(r.buf[:0], kind)
	b = binary.LittleEndian.AppendUint64(b, uint64(t))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(payload)))
	b = append(b, payload...)
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	r.buf = b
	_, err := r.w.Write(b)
	if err == nil {
		err = r.w.Flush()
	}
	if err != nil {
		// The writer keeps its error: nothing more reaches the file,
		// whose end is cut back to the last whole record.
		if terr := r.f.Truncate(r.size); terr != nil {
			return fmt.Errorf("recording: %w (and the record cut short stays: %v)", err, terr)
		}
		return fmt.Errorf("recording: %w", err)
	}
	r.size += int64(len(b))
	return nil
}

// WriteRaw records bytes read from the port at time t; an empty b records
// a parser reset (the driver's Tap convention).
func (r *Recorder) WriteRaw(t time.Duration, b []byte) error {
	if len(b) == 0 {
		return r.write(KindReset, t, nil)
	}
	return r.write(KindRaw, t, b)
}

// WriteSample records a sample of a device that has no byte stream (the
// simulation's); a sample of 8-bit readings and no angles in the form
// gloved has always written.
func (r *Recorder) WriteSample(s *devices.Sample) error {
	p := append(r.sample[:0], byte(s.N))
	for _, v := range s.Sensors() {
		p = binary.LittleEndian.AppendUint16(p, v)
	}
	p = append(p, byte(s.Status))
	if (s.Bits != 0 && s.Bits != devices.Bits8) || s.NAngles > 0 {
		p = append(p, s.Bits, byte(s.NAngles))
		for _, a := range s.JointAngles() {
			p = binary.LittleEndian.AppendUint64(p, math.Float64bits(a))
		}
	}
	r.sample = p
	return r.write(KindSample, s.Time, p)
}

// WriteWrist records the wrist pose (quaternion w x y z, translation).
func (r *Recorder) WriteWrist(t time.Duration, pose [7]float64) error {
	var p []byte
	for _, v := range pose {
		p = binary.LittleEndian.AppendUint64(p, math.Float64bits(v))
	}
	return r.write(KindWrist, t, p)
}

// Close flushes, syncs and closes the file.
func (r *Recorder) Close() error {
	err := r.w.Flush()
	if e := r.f.Sync(); err == nil {
		err = e
	}
	if e := r.f.Close(); err == nil {
		err = e
	}
	return err
}

// Record is one record read back.
type Record struct {
	Kind    byte
	Time    time.Duration
	Payload []byte // valid until the next call to Next
	Offset  int64  // byte offset of the record in the file
}

// Reader reads a recording record by record.
type Reader struct {
	Header Header
	r      *bufio.Reader
	off    int64
	buf    []byte
	head   [13]byte // a field, not a local: passed to io.ReadFull it would escape
	closer io.Closer
	// file is the file Open opened (nil for NewReader's stream), first
	// the offset of its first record: where Rewind goes back to.
	file  io.ReadSeeker
	first int64
}

// recordingFile is what a recording may be: a regular file of any size,
// read record by record, each of at most maxRecordPayload.
var recordingFile = userfile.Kind{Name: "a gloved recording"}

// Open opens path and reads its header.
func Open(path string) (*Reader, error) {
	f, err := userfile.Open(path, recordingFile)
	if err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	rr, err := NewReader(f)
	if err != nil {
		f.Close()
		// The file's name is the context: "F: recording damaged: ...",
		// each said once.
		return nil, fmt.Errorf("%s: %w", userfile.Name(path), err)
	}
	rr.closer, rr.file = f, f
	return rr, nil
}

// headerCutAdvice ends the error of every recording cut inside its
// header, wherever the cut: what it is and what to do.
const headerCutAdvice = "(cut off in its header: nothing in it to read; record the session again)"

// NewReader reads the header from r.
func NewReader(r io.Reader) (*Reader, error) {
	rr := &Reader{r: bufio.NewReader(r)}
	var head [14]byte
	if got, err := io.ReadFull(rr.r, head[:]); err != nil {
		if got == 0 && err == io.EOF {
			return nil, errors.New("empty: not a gloved recording (record a session with gloved record)")
		}
		if got >= len(recMagic) && string(head[:len(recMagic)]) == recMagic {
			// The magic, then less than the version and the header's length.
			return nil, fmt.Errorf("%w: header cut short after %d of its first 14 bytes %s", ErrCorrupt, got, headerCutAdvice)
		}
		return nil, fmt.Errorf("header: %w (not a gloved recording?)", err)
	}
	if string(head[:8]) != recMagic {
		return nil, fmt.Errorf("not a gloved recording: magic % x", head[:8])
	}
	if v := binary.LittleEndian.Uint16(head[8:]); v != recVersion {
		return nil, fmt.Errorf("recording version %d, this gloved reads version %d", v, recVersion)
	}
	n := binary.LittleEndian.Uint32(head[10:])
	if n > maxRecordPayload {
		return nil, fmt.Errorf("%w: header length %d at byte 10", ErrCorrupt, n)
	}
	js := make([]byte, n+4)
	if got, err := io.ReadFull(rr.r, js); err != nil {
		return nil, fmt.Errorf("%w: header cut short after %d of its %d bytes %s", ErrCorrupt, 14+got, 14+len(js), headerCutAdvice)
	}
	if crc32.ChecksumIEEE(js[:n]) != binary.LittleEndian.Uint32(js[n:]) {
		return nil, fmt.Errorf("%w: header checksum mismatch", ErrCorrupt)
	}
	if err := json.Unmarshal(js[:n], &rr.Header); err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrCorrupt, err)
	}
	if err := rr.Header.check(); err != nil {
		return nil, err
	}
	rr.off = int64(14 + n + 4)
	rr.first = rr.off
	return rr, nil
}

// Rewind goes back to the first record of the file Open opened, which it
// keeps open: the same file is read again even once its path names
// another, or none (a looping replay plays what it opened until it is
// opened again). A reader of a stream cannot rewind.
func (rr *Reader) Rewind() error {
	if rr.file == nil {
		return errors.New("recording: a recording read from a stream cannot be read again")
	}
	if _, err := rr.file.Seek(rr.first, io.SeekStart); err != nil {
		return fmt.Errorf("recording: rewinding: %w", err)
	}
	rr.r.Reset(rr.file)
	rr.off = rr.first
	return nil
}

// Next returns the next record, io.EOF at a clean end, or an error wrapping
// ErrCorrupt that names the byte offset of the damaged record.
func (rr *Reader) Next() (Record, error) {
	head := &rr.head
	n, err := io.ReadFull(rr.r, head[:])
	if err == io.EOF {
		return Record{}, io.EOF
	}
	if n >= len(recMagic) && string(head[:len(recMagic)]) == recMagic {
		return Record{}, fmt.Errorf("%w: another recording begins at byte %d (two recordings joined in one file?): the records before it are this one's", ErrCorrupt, rr.off)
	}
	if err != nil {
		return Record{}, fmt.Errorf("%w: record at byte %d cut short after %d bytes", ErrCorrupt, rr.off, n)
	}
	size := binary.LittleEndian.Uint32(head[9:])
	if size > maxRecordPayload {
		return Record{}, fmt.Errorf("%w: record at byte %d claims %d bytes", ErrCorrupt, rr.off, size)
	}
	if cap(rr.buf) < int(size)+4 {
		rr.buf = make([]byte, int(size)+4)
	}
	body := rr.buf[:size+4]
	if _, err := io.ReadFull(rr.r, body); err != nil {
		return Record{}, fmt.Errorf("%w: record at byte %d cut short", ErrCorrupt, rr.off)
	}
	crc := crc32.Update(crc32.ChecksumIEEE(head[:]), crc32.IEEETable, body[:size])
	if crc != binary.LittleEndian.Uint32(body[size:]) {
		return Record{}, fmt.Errorf("%w: record at byte %d fails its checksum", ErrCorrupt, rr.off)
	}
	rec := Record{Kind: head[0], Time: time.Duration(binary.LittleEndian.Uint64(head[1:])), Payload: body[:size], Offset: rr.off}
	rr.off += int64(13 + size + 4)
	switch rec.Kind {
	case KindRaw, KindReset, KindSample, KindWrist:
	default:
		return Record{}, fmt.Errorf("%w: record at byte %d has unknown kind %q", ErrCorrupt, rec.Offset, rec.Kind)
	}
	return rec, nil
}

// Close closes the underlying file, if the reader opened it.
func (rr *Reader) Close() error {
	if rr.closer != nil {
		return rr.closer.Close()
	}
	return nil
}

// DecodeSample decodes a KindSample payload.
func DecodeSample(p []byte, s *devices.Sample) error {
	if len(p) < 2 {
		return fmt.Errorf("%w: sample record of %d bytes", ErrCorrupt, len(p))
	}
	n := int(p[0])
	end := 2 + 2*n // the readings and the status byte
	if n > devices.MaxReadings || len(p) < end {
		return fmt.Errorf("%w: sample record with %d sensors in %d bytes", ErrCorrupt, n, len(p))
	}
	s.N, s.Bits, s.NAngles = n, devices.Bits8, 0
	s.Raw, s.Angles = [devices.MaxReadings]uint16{}, [devices.MaxAngles]float64{}
	for i := range n {
		s.Raw[i] = binary.LittleEndian.Uint16(p[1+2*i:])
	}
	s.Status = devices.Status(p[end-1])
	if len(p) == end {
		return nil
	}
	return decodeSampleTail(p[end:], s)
}

// decodeSampleTail decodes what follows a sample's status byte: its
// resolution and its joint angles.
func decodeSampleTail(p []byte, s *devices.Sample) error {
	if len(p) < 2 || p[0] < 1 || p[0] > 16 || int(p[1]) > devices.MaxAngles || len(p) != 2+8*int(p[1]) {
		return fmt.Errorf("%w: sample record with %d bytes after its readings", ErrCorrupt, len(p))
	}
	s.Bits, s.NAngles = p[0], int(p[1])
	for i := range s.NAngles {
		s.Angles[i] = math.Float64frombits(binary.LittleEndian.Uint64(p[2+8*i:]))
		if !geom.Finite(s.Angles[i]) {
			return fmt.Errorf("%w: sample angle %d is %v", ErrCorrupt, i, s.Angles[i])
		}
	}
	return nil
}

// DecodeWrist decodes a KindWrist payload.
func DecodeWrist(p []byte) ([7]float64, error) {
	var pose [7]float64
	if len(p) != 56 {
		return pose, fmt.Errorf("%w: wrist record of %d bytes", ErrCorrupt, len(p))
	}
	for i := range pose {
		pose[i] = math.Float64frombits(binary.LittleEndian.Uint64(p[8*i:]))
		if !geom.Finite(pose[i]) {
			return pose, fmt.Errorf("%w: wrist pose value %d is %v", ErrCorrupt, i, pose[i])
		}
	}
	return pose, nil
}
