package zeroconftest

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gloved/gloved/internal/netns"
)

//go:embed peer.py
var script []byte

//go:embed oscquery.schema.json
var schema []byte

// Schema is the OSCQuery JSON shape, as a JSON Schema (2020-12) whose
// $defs are "node" and "host_info".
func Schema() []byte { return schema }

// Event is one line the peer printed.
type Event struct {
	Event      string             `json:"event"`
	Type       string             `json:"type"`
	Name       string             `json:"name"`
	Server     string             `json:"server"`
	Port       int                `json:"port"`
	Addresses  []string           `json:"addresses"`
	Properties map[string]*string `json:"properties"`
	Unresolved bool               `json:"unresolved"`
	// With --http: HOST_INFO and the tree as read, their statuses, and
	// what the schema found wrong with them.
	HostInfo     json.RawMessage `json:"host_info"`
	Tree         json.RawMessage `json:"tree"`
	HTTP         map[string]any  `json:"http"`
	SchemaErrors []string        `json:"schema_errors"`
	Raw          string          `json:"-"`
}

// Peer is a running peer.
type Peer struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	events chan Event
	mu     sync.Mutex
	stderr strings.Builder
	stop   sync.Once
}

// Python returns a Python 3 that has zeroconf and jsonschema, or skips
// the test saying what to install (netns.Skipf: fails it where
// GLOVED_REQUIRE_PEERS=1).
func Python(t testing.TB) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		path, err := exec.LookPath(p)
		if err != nil {
			continue
		}
		if exec.Command(path, "-c", "import zeroconf, jsonschema").Run() == nil {
			return path
		}
	}
	netns.Skipf(t, "no independent mDNS peer: install python3-zeroconf and python3-jsonschema (apt-get install python3-zeroconf python3-jsonschema; .ci/run does)")
	return ""
}

// Start runs the peer with args (see peer.py: browse TYPE [--http]
// [--schema], advertise TYPE NAME PORT ADDRESS); --schema is given the
// embedded schema's path. The peer is stopped when the test ends.
func Start(t testing.TB, args ...string) *Peer {
	t.Helper()
	py := Python(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "peer.py")
	if err := os.WriteFile(path, script, 0o755); err != nil {
		t.Fatal(err)
	}
	schemaPath := filepath.Join(dir, "oscquery.schema.json")
	if err := os.WriteFile(schemaPath, schema, 0o644); err != nil {
		t.Fatal(err)
	}
	for i, a := range args {
		if a == "--schema" {
			args = append(args[:i+1:i+1], append([]string{schemaPath}, args[i+1:]...)...)
			break
		}
	}
	p := &Peer{cmd: exec.Command(py, append([]string{"-u", path}, args...)...), events: make(chan Event, 64)}
	p.cmd.Stderr = &syncWriter{p: p}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(p.events)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var e Event
			if json.Unmarshal(sc.Bytes(), &e) != nil {
				e = Event{Event: "unparsed"}
			}
			e.Raw = sc.Text()
			p.events <- e
		}
	}()
	t.Cleanup(func() { p.Stop() })
	return p
}

// Send writes a line to the peer's standard input ("quit", "port 9002").
func (p *Peer) Send(line string) { fmt.Fprintln(p.stdin, line) }

// Next returns the next event for which match is true, failing the test
// if none comes within d.
func (p *Peer) Next(t testing.TB, d time.Duration, match func(Event) bool) Event {
	t.Helper()
	deadline := time.After(d)
	for {
		select {
		case e, ok := <-p.events:
			if !ok {
				t.Fatalf("the peer ended; its errors:\n%s", p.Stderr())
			}
			if match(e) {
				return e
			}
		case <-deadline:
			t.Fatalf("no such event from the peer within %v; its errors:\n%s", d, p.Stderr())
		}
	}
}

// None fails the test if an event for which match is true comes within
// d.
func (p *Peer) None(t testing.TB, d time.Duration, match func(Event) bool) {
	t.Helper()
	deadline := time.After(d)
	for {
		select {
		case e, ok := <-p.events:
			if !ok {
				return
			}
			if match(e) {
				t.Errorf("the peer saw %s", e.Raw)
				return
			}
		case <-deadline:
			return
		}
	}
}

// Stop ends the peer (quit, then a kill if it lingers) and waits for it.
func (p *Peer) Stop() {
	p.stop.Do(func() {
		p.Send("quit")
		p.stdin.Close()
		done := make(chan struct{})
		go func() { p.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			p.cmd.Process.Kill()
			<-done
		}
	})
}

// Stderr returns what the peer wrote to standard error.
func (p *Peer) Stderr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

type syncWriter struct{ p *Peer }

func (w *syncWriter) Write(b []byte) (int, error) {
	w.p.mu.Lock()
	defer w.p.mu.Unlock()
	return w.p.stderr.Write(b)
}
