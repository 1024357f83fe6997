package oscquery

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
)

// FuzzParseQuery: any query string is one attribute name or an error,
// never a panic, and a name it returns is upper case.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"", "TYPE", "HOST_INFO", "TYPE&RANGE", "%ZZ", "type", "VALUE=1", "%48OST_INFO"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		attr, err := ParseQuery(raw)
		if err != nil {
			return
		}
		for _, c := range []byte(attr) {
			if !(c >= 'A' && c <= 'Z' || c == '_') {
				t.Fatalf("%q read as %q", raw, attr)
			}
		}
	})
}

// FuzzServer: any path and query get one of the proposal's answers (200
// with JSON, 204 without a body, 400, 404), never a panic.
func FuzzServer(f *testing.F) {
	for _, s := range [][2]string{{"/", ""}, {"/gloved/right/frame", "TYPE"}, {"/x", "HOST_INFO"}, {"//", "%"}, {"/gloved/../gloved", "VALUE"}} {
		f.Add(s[0], s[1])
	}
	s, _ := testServer(f, Options{})
	h := s.Handler()
	f.Fuzz(func(t *testing.T, path, query string) {
		r := httptest.NewRequest("GET", "/", nil)
		r.URL = &url.URL{Path: path, RawQuery: query}
		r.RemoteAddr, r.Host = "127.0.0.1:40000", "127.0.0.1:9432"
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		switch w.Code {
		case http.StatusOK:
			if !json.Valid(w.Body.Bytes()) {
				t.Fatalf("%q ? %q: 200 with %q", path, query, w.Body.String())
			}
		case http.StatusNoContent:
			if w.Body.Len() != 0 {
				t.Fatalf("%q ? %q: 204 with a body", path, query)
			}
		case http.StatusBadRequest, http.StatusNotFound:
		default:
			t.Fatalf("%q ? %q: %d", path, query, w.Code)
		}
	})
}
