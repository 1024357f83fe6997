package oscquery

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/gloved/gloved/access"
	"github.com/gloved/gloved/osc"
)

// testServer is a server of the two hands' tree, not listening.
func testServer(t testing.TB, o Options) (*Server, *Tree) {
	t.Helper()
	tree, err := twoHands.Tree(osc.Methods())
	if err != nil {
		t.Fatal(err)
	}
	s := New(o)
	s.SetTree(tree)
	s.SetHost("gloved-test", netip.MustParseAddrPort("127.0.0.1:9431"))
	return s, tree
}

// get asks h for target as a loopback client would, naming the server
// as localhost (whatever port it listens on), and returns the status and
// body.
func get(h http.Handler, method, target string) (int, string) {
	r := httptest.NewRequest(method, target, nil)
	r.RemoteAddr, r.Host = "127.0.0.1:40000", "localhost"
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Code, w.Body.String()
}

// TestServerAnswersAsTheProposalSays: a path is its node and everything
// under it; ?ATTR one attribute ({} where the node has none); VALUE and
// the other attributes gloved does not serve are 204; a name that is not
// an attribute, or more than one, is 400; an address with no node is 404
// (a trailing slash is not an OSC address); HOST_INFO answers whatever the
// path; only GET and HEAD are served.
func TestServerAnswersAsTheProposalSays(t *testing.T) {
	s, tree := testServer(t, Options{})
	h := s.Handler()
	tests := []struct {
		method, target string
		code           int
		body           string // "" to skip; otherwise the exact JSON
	}{
		{"GET", "/", 200, string(tree.JSON("/"))},
		{"GET", "/gloved/right/frame", 200, string(tree.JSON("/gloved/right/frame"))},
		{"GET", "/gloved/right/frame#fragment", 200, string(tree.JSON("/gloved/right/frame"))},
		{"GET", "/gloved/right/frame?TYPE#fragment", 200, `{"TYPE":"ifi"}`},
		{"GET", "/gloved/right/frame?TYPE", 200, `{"TYPE":"ifi"}`},
		{"GET", "/gloved/right/frame?FULL_PATH", 200, `{"FULL_PATH":"/gloved/right/frame"}`},
		{"GET", "/gloved/right/frame?ACCESS", 200, `{"ACCESS":1}`},
		{"GET", "/gloved/right/wrist?ACCESS", 200, `{"ACCESS":2}`},
		{"GET", "/gloved/subscribe?TYPE", 200, `{"TYPE":"sis"}`},
		{"GET", "/gloved/right/frame?RANGE", 200, `{"RANGE":[null,{"MIN":0},{"MIN":0,"MAX":2147483647}]}`},
		{"GET", "/gloved/right/frame?UNIT", 200, `{"UNIT":[null,"time.ms",null]}`},
		{"GET", "/gloved/right/sample?UNIT", 200, `{}`},
		{"GET", "/gloved/right/frame?CONTENTS", 200, `{}`},
		{"GET", "/gloved?TYPE", 200, `{}`},
		{"GET", "/gloved?ACCESS", 200, `{"ACCESS":0}`},
		{"GET", "/gloved/right?DESCRIPTION", 200, `{"DESCRIPTION":"The hand right: what gloved sends about it and what it accepts for it."}`},
		{"GET", "/gloved/right/frame?VALUE", 204, ""},
		{"GET", "/gloved?VALUE", 204, ""},
		{"GET", "/gloved/right/frame?TAGS", 204, ""},
		{"GET", "/gloved/right/frame?CLIPMODE", 204, ""},
		{"GET", "/gloved/right/frame?HTML", 204, ""},
		{"GET", "/gloved/right/frame?FOO", 400, ""},
		{"GET", "/gloved/right/frame?type", 400, ""},
		{"GET", "/gloved/right/frame?TYPE&RANGE", 400, ""},
		{"GET", "/gloved/right/frame?TYPE=1", 400, ""},
		{"GET", "/gloved/right/frame?%ZZ", 400, ""},
		{"GET", "/nowhere", 404, ""},
		{"GET", "/nowhere?TYPE", 404, ""},
		{"GET", "/gloved/", 404, ""},
		{"GET", "/gloved/right/frame/", 404, ""},
		{"GET", "/nowhere?HOST_INFO", 200, ""},
		{"GET", "/?HOST_INFO", 200, ""},
		{"POST", "/", 405, ""},
		{"HEAD", "/", 200, ""},
	}
	for _, tc := range tests {
		code, body := get(h, tc.method, tc.target)
		if code != tc.code {
			t.Errorf("%s %s: %d, want %d (%s)", tc.method, tc.target, code, tc.code, body)
			continue
		}
		if tc.body != "" && body != tc.body {
			t.Errorf("%s %s:\n got %s\nwant %s", tc.method, tc.target, body, tc.body)
		}
		if code == 204 && body != "" {
			t.Errorf("%s %s: 204 with a body %q", tc.method, tc.target, body)
		}
		if code == 200 && tc.method == "GET" && !json.Valid([]byte(body)) {
			t.Errorf("%s %s: not JSON: %s", tc.method, tc.target, body)
		}
	}
}

// TestHostInfo: the instance name, every extension with VALUE false, and
// the OSC server's address; a hub on 0.0.0.0 is reported at the address
// the request arrived on.
func TestHostInfo(t *testing.T) {
	s, _ := testServer(t, Options{})
	_, body := get(s.Handler(), "GET", "/?HOST_INFO")
	var hi HostInfo
	if err := json.Unmarshal([]byte(body), &hi); err != nil {
		t.Fatal(err)
	}
	if hi.Name != "gloved-test" || hi.OSCIP != "127.0.0.1" || hi.OSCPort != 9431 || hi.OSCTransport != "UDP" {
		t.Errorf("HOST_INFO %+v", hi)
	}
	if on, ok := hi.Extensions["VALUE"]; !ok || on || !hi.Extensions["RANGE"] || !hi.Extensions["UNIT"] || hi.Extensions["LISTEN"] {
		t.Errorf("EXTENSIONS %v", hi.Extensions)
	}
	if strings.Contains(body, "WS_") {
		t.Errorf("a WebSocket is advertised: %s", body)
	}
	s.SetHost("gloved-test (2)", netip.MustParseAddrPort("0.0.0.0:9431"))
	r := httptest.NewRequest("GET", "/?HOST_INFO", nil)
	r.RemoteAddr, r.Host = "192.0.2.7:40000", "192.0.2.1:9432"
	r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, &net.TCPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 9432}))
	s.opt.Allow = []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, r)
	hi = HostInfo{}
	json.Unmarshal(w.Body.Bytes(), &hi)
	if hi.Name != "gloved-test (2)" || hi.OSCIP != "192.0.2.1" || hi.OSCPort != 9431 {
		t.Errorf("on 0.0.0.0: HOST_INFO %+v", hi)
	}
}

// TestServerAccessRules: loopback and osc.allow's hosts read the tree;
// another host is refused (403), as is a request on loopback naming the
// server by another name (DNS rebinding); refusals are counted and
// logged at most once a second.
func TestServerAccessRules(t *testing.T) {
	var logged []string
	s, _ := testServer(t, Options{Allow: []netip.Prefix{netip.MustParsePrefix("192.0.2.0/28")},
		Log: func(msg string, kv ...any) { logged = append(logged, msg) }})
	h := s.Handler()
	for _, tc := range []struct {
		remote, host string
		code         int
	}{
		{"127.0.0.1:5000", "127.0.0.1:9432", 200},
		{"[::1]:5000", "localhost:9432", 200},
		{"192.0.2.5:5000", "127.0.0.1:9432", 200},
		{"192.0.2.99:5000", "127.0.0.1:9432", 403},
		{"198.51.100.1:5000", "127.0.0.1:9432", 403},
		{"127.0.0.1:5000", "rebind.attacker.example:9432", 403},
	} {
		r := httptest.NewRequest("GET", "/?HOST_INFO", nil)
		r.RemoteAddr, r.Host = tc.remote, tc.host
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9432}))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tc.code {
			t.Errorf("from %s as %s: %d, want %d", tc.remote, tc.host, w.Code, tc.code)
		}
	}
	if st := s.Stats(); st.Refused != 3 || len(logged) != 1 {
		t.Errorf("refused %d, logged %d lines (%v); want 3 refused, one line", st.Refused, len(logged), logged)
	}
}

// TestServerOverTCP: a listening server answers a real client; a second
// one on its port says the port is in use.
func TestServerOverTCP(t *testing.T) {
	s, err := ListenHTTP("127.0.0.1:0", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tree, _ := twoHands.Tree(osc.Methods())
	s.SetTree(tree)
	resp, err := http.Get(s.URL() + "gloved/left/links?TYPE")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" || !strings.HasPrefix(string(body), `{"TYPE":"fffffff`) {
		t.Errorf("%d %s %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if _, err := ListenHTTP(s.Addr().String(), Options{}); !errors.Is(err, access.ErrInUse) {
		t.Errorf("a second server on the port: %v, want ErrInUse", err)
	}
}

// BenchmarkServeTree is answering GET / (the whole tree of two hands),
// what a client asks first.
func BenchmarkServeTree(b *testing.B) {
	s, _ := testServer(b, Options{})
	h := s.Handler()
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr, r.Host = "127.0.0.1:40000", "127.0.0.1:9432"
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
	}
}
