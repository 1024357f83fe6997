package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gloved/gloved/daemon/daemontest"
	"github.com/gloved/gloved/mdns"
	"github.com/gloved/gloved/oscquery"
	"github.com/gloved/gloved/view"
)

// surface is a `gloved run` of one simulated hand (100 frames a second)
// whose three HTTP servers are attacked: the live page, the OSCQuery tree
// and the metrics, each on loopback. Its frames arrive at a receiver; its
// memory and open files are read from /proc.
type surface struct {
	p                   *proc
	view, oscq, metrics string // host:port
	frames              *daemontest.Received
}

// startSurface runs the daemon, under the command prefix if one is given
// (prlimit ...), and waits until it runs.
func startSurface(t *testing.T, prefix ...string) *surface {
	t.Helper()
	rx, frames := daemontest.Listen(t)
	s := &surface{metrics: freePortTCP(t), frames: frames}
	path := simConfig(t, freeUDP(t), rx.LocalAddr().String(), "")
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(text, "[view]\nlisten = \"127.0.0.1:0\"\n[oscquery]\nlisten = \"127.0.0.1:0\"\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	appendMetrics(t, path, s.metrics)
	args := append(append([]string{}, prefix...), binary(t), "run", "-c", path, "--status=false")
	s.p = startCommand(t, "gloved run", exec.Command(args[0], args[1:]...))
	running := s.p.logLine(t, "gloved running")
	s.view, s.oscq = hostOf(fmt.Sprint(running["view"])), hostOf(fmt.Sprint(running["oscquery"]))
	return s
}

// connCaps bounds the connections the three servers hold, with a margin:
// the page's 64 (view.DefaultMaxViewers and 32), the tree's 64 and the
// metrics' 16.
const connCaps = 200

// hostOf is the host:port of an http:// URL.
func hostOf(url string) string {
	return strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
}

// usage is what the daemon used over a window: frames a second arriving
// at the receiver, resident memory and open files at its end, and the
// glove samples it dropped so far (its metrics); and the kernel's memory
// for TCP buffers then (the machine's: shown, not judged).
type usage struct {
	fps     float64
	rssMB   float64
	fds     int
	dropped string
	tcpMB   float64
}

func (u usage) String() string {
	return fmt.Sprintf("%6.1f frames/s %6.1f MB RSS %5d fds, %s samples dropped; TCP buffers %6.1f MB", u.fps, u.rssMB, u.fds, u.dropped, u.tcpMB)
}

// usage waits for window and says what the daemon used over it.
func (s *surface) usage(t *testing.T, window time.Duration) usage {
	t.Helper()
	from := time.Now()
	time.Sleep(window)
	to := time.Now()
	all, at := s.frames.All(), s.frames.Times()
	n := 0
	for i := range min(len(all), len(at)) {
		if at[i].After(from) && !at[i].After(to) && daemontest.Frames(all[i:i+1], "right") > 0 {
			n++
		}
	}
	u := usage{fps: float64(n) / to.Sub(from).Seconds()}
	pid := s.p.cmd.Process.Pid
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			u.rssMB = float64(kb) / 1024
		}
	}
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Fatal(err)
	}
	u.fds = len(fds)
	u.dropped = "?"
	if a := send(s.metrics, "GET", "/metrics", s.metrics); a.code == http.StatusOK {
		_, after, _ := strings.Cut(a.body, "\ngloved_dropped_samples_total ")
		u.dropped, _, _ = strings.Cut(after, "\n")
	}
	if sockstat, err := os.ReadFile("/proc/net/sockstat"); err == nil {
		_, tcp, _ := strings.Cut(string(sockstat), "TCP:")
		if _, mem, ok := strings.Cut(tcp, " mem "); ok {
			pages, _ := strconv.Atoi(strings.Fields(mem)[0])
			u.tcpMB = float64(pages*os.Getpagesize()) / (1 << 20)
		}
	}
	return u
}

// answer is an HTTP response as the test reads it.
type answer struct {
	code           int
	body, location string
}

// send sends one request to addr as written, the target as it is (no
// cleaning: a path traversal goes out as the attacker writes it), with
// Host host and the headers hdr ("Name: value" lines), and reads the
// answer; no answer within 10 s is code 0, the error as the body.
func send(addr, method, target, host string, hdr ...string) answer {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return answer{body: err.Error()}
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	req := method + " " + target + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n"
	for _, h := range hdr {
		req += h + "\r\n"
	}
	if _, err := io.WriteString(c, req+"\r\n"); err != nil {
		return answer{body: err.Error()}
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return answer{body: err.Error()}
	}
	defer resp.Body.Close()
	var body []byte
	if resp.StatusCode != http.StatusSwitchingProtocols {
		body, _ = io.ReadAll(resp.Body)
	}
	return answer{resp.StatusCode, string(body), resp.Header.Get("Location")}
}

// idleConnections opens n connections to addr, each of which asks for
// the page's style sheet once and then neither reads nor closes: idle
// keep-alive connections, as a browser leaves them, a thousand times.
func idleConnections(t *testing.T, addr string, n int) {
	t.Helper()
	req := "GET /style.css HTTP/1.1\r\nHost: " + addr + "\r\n\r\n"
	for range n {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		io.WriteString(c, req)
	}
}

// raiseFileLimit lets the test hold n connections of its own.
func raiseFileLimit(t *testing.T, n uint64) {
	t.Helper()
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	if lim.Cur >= n {
		return
	}
	if lim.Max < n {
		t.Skipf("the test needs %d open files and may have %d (ulimit -Hn)", n, lim.Max)
	}
	old := lim
	lim.Cur = n
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old) })
}

// TestIdleConnectionsStallNoServer is issue 28's item 4: gloved under
// `ulimit -n 1024`, and 1,100 connections to its page that asked once
// and stay open reading nothing. The page, the metrics and the OSCQuery
// tree still answer, frames keep flowing, a SIGHUP still reloads, the
// daemon's open files stay bounded by its servers' connection caps, and
// the log is not flooded.
func TestIdleConnectionsStallNoServer(t *testing.T) {
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Skip("prlimit (util-linux) is not installed: cannot limit the daemon's open files")
	}
	raiseFileLimit(t, 2048)
	s := startSurface(t, "prlimit", "--nofile=1024:1024")
	before := s.usage(t, 2*time.Second)
	idleConnections(t, s.view, 1100)
	during := s.usage(t, 2*time.Second)
	for _, q := range []struct{ name, addr, target string }{
		{"the page", s.view, "/"},
		{"the metrics", s.metrics, "/metrics"},
		{"the OSCQuery tree", s.oscq, "/?HOST_INFO"},
	} {
		if a := send(q.addr, "GET", q.target, q.addr); a.code != http.StatusOK {
			t.Errorf("%s answered %d, want 200: %.200s", q.name, a.code, a.body)
		}
	}
	if during.fds > before.fds+connCaps {
		t.Errorf("%d open files with 1,100 idle connections, %d before: more than the servers' caps (%d) allow", during.fds, before.fds, connCaps)
	}
	if during.fps < 10 {
		t.Errorf("%.1f frames a second during the attack: the frame loop stalled", during.fps)
	}
	t.Logf("1,100 idle connections to the page, gloved under ulimit -n 1024:\n before: %v\n during: %v", before, during)
	s.p.cmd.Process.Signal(syscall.SIGHUP)
	s.p.logLine(t, "SIGHUP: reloading the config")
	for deadline := time.Now().Add(20 * time.Second); strings.Count(s.p.errs.String(), `"gloved running"`) < 2; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the daemon did not reload:\n%s", s.p.errs.String())
		}
	}
	after := s.usage(t, 2*time.Second)
	if after.fps < 10 {
		t.Errorf("%.1f frames a second after the reload", after.fps)
	}
	if n := strings.Count(s.p.errs.String(), "Accept error"); n > 3 {
		t.Errorf("%d lines of accept errors: the log is flooded", n)
	}
	t.Logf("after the reload: %v", after)
}

// viewers opens n WebSocket streams to the page at addr, from its own
// origin, each of which asks for a frame and then reads nothing more: a
// frozen tab, n times. It returns how many streams the server took (101)
// and how many it refused (503).
func viewers(t *testing.T, addr string, n int) (taken, refused int) {
	t.Helper()
	handshake := "GET /ws HTTP/1.1\r\nHost: " + addr + "\r\nOrigin: http://" + addr + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
	next := []byte(`{"type":"next"}`)
	frame := append([]byte{0x81, 0x80 | byte(len(next)), 0, 0, 0, 0}, next...) // masked with zeros: the text as it is
	for range n {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		c.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.WriteString(c, handshake); err != nil {
			t.Fatal(err)
		}
		code, err := statusOnly(c)
		if err != nil {
			t.Fatalf("viewer %d: %v", taken+refused, err)
		}
		switch code {
		case http.StatusSwitchingProtocols:
			taken++
			c.Write(frame)
		case http.StatusServiceUnavailable:
			refused++
		default:
			t.Fatalf("viewer %d: the upgrade was answered %d", taken+refused, code)
		}
	}
	return taken, refused
}

// statusOnly reads an HTTP answer's head a byte at a time, nothing after
// it, and returns its status code.
func statusOnly(c net.Conn) (int, error) {
	var head []byte
	b := make([]byte, 1)
	for !strings.HasSuffix(string(head), "\r\n\r\n") {
		if _, err := c.Read(b); err != nil {
			return 0, fmt.Errorf("reading the answer's head %q: %w", head, err)
		}
		head = append(head, b[0])
	}
	f := strings.Fields(string(head))
	if len(f) < 2 {
		return 0, fmt.Errorf("answer %q", head)
	}
	return strconv.Atoi(f[1])
}

// TestViewersThatNeverReadCostNothing is issue 28's item 5: 200
// WebSocket viewers that open the stream, ask for a frame and never read.
// At most view.max_viewers are taken and the rest refused (503); frames
// keep flowing at the glove's rate; the daemon's open files and memory
// stay bounded.
func TestViewersThatNeverReadCostNothing(t *testing.T) {
	s := startSurface(t)
	before := s.usage(t, 2*time.Second)
	taken, refused := viewers(t, s.view, 200)
	during := s.usage(t, 3*time.Second)
	t.Logf("200 viewers that never read: %d taken, %d refused\n before: %v\n during: %v", taken, refused, before, during)
	if taken > view.DefaultMaxViewers || taken+refused != 200 {
		t.Errorf("%d viewers taken, %d refused: want at most %d taken, the rest refused", taken, refused, view.DefaultMaxViewers)
	}
	if during.fps < 10 {
		t.Errorf("%.1f frames a second with 200 viewers: the frame loop stalled", during.fps)
	}
	if during.fds > before.fds+connCaps {
		t.Errorf("%d open files with 200 viewers, %d before: more than the servers' caps (%d) allow", during.fds, before.fds, connCaps)
	}
	if during.rssMB > before.rssMB+100 {
		t.Errorf("%.0f MB resident with 200 viewers, %.0f MB before", during.rssMB, before.rssMB)
	}
}

// TestTheHTTPServersAnswerOnlyTheirOwnNames is issue 28's items 3 and 6,
// on each of the page, the OSCQuery tree and the metrics: a request
// naming another host (a page that rebound its DNS name to 127.0.0.1)
// or another port is refused, one naming the server by its address, as
// localhost, by the machine's name or, for the tree, by its mDNS host
// name is served; a request head of 64 KB is refused (431); a WebSocket
// upgrade or a POST from a page of another origin is refused; a path out
// of the served files is 404.
func TestTheHTTPServersAnswerOnlyTheirOwnNames(t *testing.T) {
	t.Parallel()
	s := startSurface(t)
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	host, _, _ = strings.Cut(host, ".")
	for _, srv := range []struct {
		name, addr, target string
		own                string // a name of its own
	}{
		{"the page", s.view, "/", "localhost"},
		{"the OSCQuery tree", s.oscq, "/?HOST_INFO", mdns.HostName("gloved-"+host, oscquery.TypeJSON)}, // as mDNS resolves it
		{"the metrics", s.metrics, "/metrics", "localhost"},
	} {
		_, port, _ := net.SplitHostPort(srv.addr)
		for _, tc := range []struct {
			host string
			code int
		}{
			{srv.addr, 200},
			{srv.own + ":" + port, 200},
			{"localhost:" + port, 200},
			{"LocalHost", 200},
			{"[::1]:" + port, 200},
			{host + ":" + port, 200},
			{host + ".local:" + port, 200},
			{"evil.example:" + port, 403},
			{"evil.example", 403},
			{"127.0.0.1.nip.io:" + port, 403},
			{"127.0.0.1:1", 403},
		} {
			if a := send(srv.addr, "GET", srv.target, tc.host); a.code != tc.code {
				t.Errorf("%s as %s: %d, want %d: %.200s", srv.name, tc.host, a.code, tc.code, a.body)
			}
		}
		for _, target := range []string{"/../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2f..%2fetc%2fpasswd",
			"/.%2e/.%2e/etc/passwd", "/index.html/../../../etc/passwd", `/..\..\..\etc\passwd`, "//etc/passwd", "/assets/app.js", "/../assets/index.html"} {
			a, at := send(srv.addr, "GET", target, srv.addr), target
			for hops := 0; a.code/100 == 3 && hops < 3; hops++ { // a redirect to the cleaned path, as a browser follows it
				base, _ := url.Parse("http://" + srv.addr + at)
				next, err := url.Parse(a.location)
				if err != nil {
					t.Fatalf("%s: GET %s: redirected to %q", srv.name, at, a.location)
				}
				at = base.ResolveReference(next).RequestURI()
				a = send(srv.addr, "GET", at, srv.addr)
			}
			if a.code != http.StatusNotFound || strings.Contains(a.body, "root:") {
				t.Errorf("%s: GET %s: %d %.100q, want 404", srv.name, target, a.code, a.body)
			}
		}
		if a := send(srv.addr, "GET", srv.target, srv.addr, "X-Filler: "+strings.Repeat("x", 64<<10)); a.code != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("%s: a 64 KB request head: %d, want 431", srv.name, a.code)
		}
		foreign := "Origin: http://evil.example:" + port
		if a := send(srv.addr, "POST", srv.target, srv.addr, foreign); a.code != http.StatusForbidden {
			t.Errorf("%s: a POST from another origin: %d, want 403", srv.name, a.code)
		}
	}
	upgrade := []string{"Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13"}
	for _, tc := range []struct {
		origin string
		code   int
	}{
		{"http://evil.example", 403},
		{"http://" + strings.Replace(s.view, "127.0.0.1", "evil.example", 1), 403},
		{"null", 403},
		{"https://" + s.view, 403},
		{"http://" + s.view, 101},
		{"", 101}, // not a browser: browsers always send one
	} {
		hdr := upgrade
		if tc.origin != "" {
			hdr = append(hdr[:len(hdr):len(hdr)], "Origin: "+tc.origin)
		}
		if a := send(s.view, "GET", "/ws", s.view, hdr...); a.code != tc.code {
			t.Errorf("a WebSocket upgrade from origin %q: %d, want %d", tc.origin, a.code, tc.code)
		}
	}
}

// TestMetricsBeyondLoopbackAreForOSCAllowOnly is issue 28's item 6 on a
// network (192.0.2.1 and .2 on a private namespace's loopback): metrics
// on 0.0.0.0 without osc.allow are warned of at start, in one line
// saying what to do, and answer loopback only, by any of the machine's
// addresses; with osc.allow they answer its hosts, and no warning is
// given.
func TestMetricsBeyondLoopbackAreForOSCAllowOnly(t *testing.T) {
	t.Parallel()
	if !inNamespace(t) {
		return
	}
	addToLoopback(t, "192.0.2.1/32", "192.0.2.2/32")
	for _, allow := range []string{"", `"192.0.2.2"`} {
		_, port, _ := net.SplitHostPort(freePortTCP(t))
		p := startGloved(t, "gloved run", "run", "-c", twoHandConfig(t, freeUDP(t), fmt.Sprintf("allow = [%s]\n[metrics]\nlisten = \"0.0.0.0:%s\"\n", allow, port)), "--status=false")
		p.logLine(t, "gloved running")
		warned := strings.Count(p.errs.String(), "metrics.listen is beyond loopback")
		if want := map[bool]int{true: 1, false: 0}[allow == ""]; warned != want || want == 1 && !strings.Contains(p.errs.String(), "add the address of the host that scrapes them to osc.allow") {
			t.Errorf("allow [%s]: warned %d times, want %d:\n%s", allow, warned, want, p.errs.String())
		}
		for _, tc := range []struct {
			from, host string
			code       int
		}{
			{"127.0.0.1", "127.0.0.1", 200},
			{"127.0.0.1", "192.0.2.1", 200},
			{"192.0.2.2", "192.0.2.1", map[bool]int{true: 403, false: 200}[allow == ""]},
			{"192.0.2.2", "rebind.attacker.example", 403},
		} {
			if code, body := request(t, tc.from, net.JoinHostPort(tc.host, port), "GET", "/metrics", port); code != tc.code {
				t.Errorf("allow [%s]: from %s as %s: %d, want %d: %.100s", allow, tc.from, tc.host, code, tc.code, body)
			}
		}
	}
}
