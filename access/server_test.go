package access

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// serve serves h on loopback within lim.
func serve(t *testing.T, h http.Handler, lim Limits) (*Server, string) {
	t.Helper()
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := Serve(ln, h, lim, "test", nil)
	t.Cleanup(func() { s.Close() })
	return s, ln.Addr().String()
}

// ask sends one request on c and reads the answer's status.
func ask(c net.Conn, r *bufio.Reader) (int, error) {
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"); err != nil {
		return 0, err
	}
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, nil
}

// waitFor waits, at most 10 s, until cond holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10 s for %s", what)
		}
	}
}

// closedAtOnce reports whether a new connection to addr is closed
// without a word (within 10 s).
func closedAtOnce(t *testing.T, addr string) bool {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	_, err = c.Read(make([]byte, 1))
	return err == io.EOF || errors.Is(err, syscall.ECONNRESET)
}

// TestConnectionsLeftOpenMakeWayForNewOnes: a server of 4 places and 20
// connections left open, half kept alive after a request and half
// stopped in the middle of a request's head (slowloris): it holds 4 of
// them, closing the one that waited longest for each that came, and a
// new client is answered.
func TestConnectionsLeftOpenMakeWayForNewOnes(t *testing.T) {
	// A header timeout far beyond the test, so that a slow machine does not
	// close the slowloris connections itself before they are evicted.
	s, addr := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}), Limits{Conns: 4, ReadHeader: time.Minute})
	for i := range 20 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if i%2 == 0 {
			if code, err := ask(c, bufio.NewReader(c)); err != nil || code != 200 {
				t.Fatalf("connection %d: %d %v", i, code, err)
			}
		} else {
			io.WriteString(c, "GET / HTTP/1.1\r\nHost: loc")
		}
	}
	waitFor(t, "20 connections taken", func() bool { st := s.Stats(); return st.Held+int(st.Evicted) == 20 })
	newClientAnswered(t, addr)
	if st := s.Stats(); st.Held > 4 || st.Evicted < 17 || st.Refused != 0 {
		t.Errorf("%+v: want at most 4 held, the 17 that waited longest closed, none refused", st)
	}
}

// TestBusyConnectionsKeepTheirPlaces: while every place is taken by a
// request being answered, a new connection is closed at once and the
// answers go on; a place freed is taken again.
func TestBusyConnectionsKeepTheirPlaces(t *testing.T) {
	release := make(chan struct{})
	var busy sync.WaitGroup
	busy.Add(2)
	s, addr := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			busy.Done()
			<-release
		}
	}), Limits{Conns: 2})
	answers := make(chan string, 2)
	for range 2 {
		go func() {
			resp, err := http.Get("http://" + addr + "/slow")
			if err != nil {
				answers <- err.Error()
				return
			}
			resp.Body.Close()
			answers <- resp.Status
		}()
	}
	busy.Wait()
	if !closedAtOnce(t, addr) {
		t.Error("a connection beyond the places was not closed")
	}
	close(release)
	for range 2 {
		if a := <-answers; a != "200 OK" {
			t.Errorf("a busy request got %s", a)
		}
	}
	if st := s.Stats(); st.Refused != 1 || st.Evicted != 0 {
		t.Errorf("%+v: want the one beyond the places refused, none evicted", st)
	}
	resp, err := http.Get("http://" + addr + "/")
	if err != nil {
		t.Fatalf("after the busy ones: %v", err)
	}
	resp.Body.Close()
}

// TestAStreamHoldsItsPlaceUntilClosed: a connection taken over by its
// handler (a WebSocket) holds its place, is never closed for another,
// outlives the request's read and write deadlines, and frees its place
// when the handler closes it.
func TestAStreamHoldsItsPlaceUntilClosed(t *testing.T) {
	streams := make(chan net.Conn, 1)
	const short = 100 * time.Millisecond
	s, addr := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		streams <- c
	}), Limits{Conns: 1, ReadHeader: short, Read: short, Write: short, Idle: short})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
	stream := <-streams
	if !closedAtOnce(t, addr) {
		t.Error("a connection beyond the stream's place was not closed")
	}
	if st := s.Stats(); st.Held != 1 || st.Evicted != 0 || st.Refused != 1 {
		t.Errorf("%+v: want the stream held, the other refused", st)
	}
	time.Sleep(3 * short)
	if _, err := io.WriteString(stream, "still open\n"); err != nil {
		t.Errorf("writing to the stream past the request's deadlines: %v", err)
	}
	io.WriteString(c, "and this\n")
	if line, err := bufio.NewReader(stream).ReadString('\n'); err != nil || line != "and this\n" {
		t.Errorf("reading from the stream past the request's deadlines: %q %v", line, err)
	}
	stream.Close()
	waitFor(t, "the stream's place freed", func() bool { return s.Stats().Held == 0 })
}

// TestNetHTTPsLinesAreLimited: what net/http logs goes out a line of a
// kind a second, with the server's name: an accept error repeated every
// 5 ms is one line, a line of another kind still goes out, once whatever
// the client's address.
func TestNetHTTPsLinesAreLimited(t *testing.T) {
	var got []string
	e := &errorLog{name: "view", log: func(msg string, kv ...any) { got = append(got, fmt.Sprint(msg, kv)) }}
	e.limit.Every = time.Minute
	for range 100 {
		fmt.Fprintf(e, "http: Accept error: accept tcp 127.0.0.1:8080: accept4: too many open files; retrying in 5ms\n")
	}
	fmt.Fprintf(e, "http: TLS handshake error from 127.0.0.1:5000: EOF\n")
	fmt.Fprintf(e, "http: TLS handshake error from 127.0.0.2:5001: EOF\n")
	want := []string{"view: http: Accept error: accept tcp 127.0.0.1:8080: accept4: too many open files; retrying in 5ms[]",
		"view: http: TLS handshake error from 127.0.0.1:5000: EOF[]"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("logged %d lines, the first %.3q; want %q", len(got), got, want)
	}
}

// TestAStrangerEvictsNoOne: with every place taken by idle connections
// of served sources, a connection from a source the server refuses is
// closed at once, and none of theirs; one from a served source still
// takes the place of the one that waited longest.
func TestAStrangerEvictsNoOne(t *testing.T) {
	stranger := netip.MustParseAddr("127.0.0.2")
	s, addr := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}),
		Limits{Conns: 2, ReadHeader: time.Minute, Source: func(a netip.Addr) bool { return a != stranger }})
	from := func(src string) net.Conn {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}}
		c, err := d.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	from("127.0.0.1")
	from("127.0.0.1")
	waitFor(t, "2 connections held", func() bool { return s.Stats().Held == 2 })
	c := from("127.0.0.2")
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.Read(make([]byte, 1)); err != io.EOF && !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("a stranger's connection was kept with every place taken")
	}
	if st := s.Stats(); st.Held != 2 || st.Evicted != 0 || st.Refused != 1 {
		t.Errorf("%+v: want 2 held, none evicted, the stranger refused", st)
	}
	from("127.0.0.1")
	waitFor(t, "a served source takes a place", func() bool { return s.Stats().Evicted == 1 })
}

// TestATrickledBodyHoldsNoPlace: connections that send a request with a
// body (none of the servers takes one) and trickle it are answered and
// closed at once, so that however many come, a new client is answered.
func TestATrickledBodyHoldsNoPlace(t *testing.T) {
	s, addr := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}), Limits{Conns: 4})
	for i := range 12 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		head := "POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nffffffff\r\n"
		if i%2 == 1 {
			head = "GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\nx"
		}
		io.WriteString(c, head)
		c.SetDeadline(time.Now().Add(10 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil || resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Fatalf("connection %d: %v %v, want 413 at once", i, resp, err)
		}
	}
	waitFor(t, "the body senders closed", func() bool { return s.Stats().Held == 0 })
	newClientAnswered(t, addr)
}

// newClientAnswered fails t unless a new connection to addr is answered
// 200 (within 10 s).
func newClientAnswered(t *testing.T, addr string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if code, err := ask(c, bufio.NewReader(c)); err != nil || code != 200 {
		t.Fatalf("a new client: %d %v, want 200", code, err)
	}
}
