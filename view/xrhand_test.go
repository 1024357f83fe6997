package view

import (
	"bytes"
	"io"
	"io/fs"
	"math"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handcontact"
	"github.com/gloved/gloved/handmodel"
)

// TestThePageShipsTheWebXRHandTheModelIsTestedOn: the page's WebXR hand
// and its licence are the very bytes of handmodel's testdata, on which
// the skin reader and the OpenXR joints are tested.
func TestThePageShipsTheWebXRHandTheModelIsTestedOn(t *testing.T) {
	for _, name := range []string{"left.glb", "right.glb", "LICENSE.md"} {
		shipped, err := fs.ReadFile(Assets, "webxr-generic-hand/"+name)
		if err != nil {
			t.Fatal(err)
		}
		tested, err := os.ReadFile(filepath.Join("..", "handmodel", "testdata", "webxr-generic-hand", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(shipped, tested) {
			t.Errorf("view/assets/webxr-generic-hand/%s differs from handmodel/testdata's: copy it over", name)
		}
	}
}

// TestTheWebXRHandIsServedAsGLTF: the page's glTF files are served as
// model/gltf-binary and its licence as Markdown, with the headers of
// every asset (no-cache, nosniff); a path outside the assets is not
// found, nor is a directory's listing.
func TestTheWebXRHandIsServedAsGLTF(t *testing.T) {
	s := listen(t, Options{})
	h := s.Handler()
	host := strings.TrimSuffix(strings.TrimPrefix(s.URL(), "http://"), "/")
	get := func(path string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", path, nil)
		r.RemoteAddr, r.Host = "127.0.0.1:5000", host
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	for _, tc := range []struct{ path, file, ctype string }{
		{"/" + XRHandURL(true), "right.glb", "model/gltf-binary"},
		{"/" + XRHandURL(false), "left.glb", "model/gltf-binary"},
		{"/webxr-generic-hand/LICENSE.md", "LICENSE.md", "text/markdown; charset=utf-8"},
	} {
		w := get(tc.path)
		want, err := fs.ReadFile(Assets, "webxr-generic-hand/"+tc.file)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(w.Body)
		if w.Code != 200 || !bytes.Equal(body, want) {
			t.Errorf("%s: %d, %d bytes; want 200 and the %d bytes of %s", tc.path, w.Code, len(body), len(want), tc.file)
		}
		if got := w.Header().Get("Content-Type"); got != tc.ctype {
			t.Errorf("%s is served as %q, want %q", tc.path, got, tc.ctype)
		}
		if w.Header().Get("Cache-Control") != "no-cache" || w.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: headers %v, want those of every asset", tc.path, w.Header())
		}
	}
	for _, path := range []string{"/webxr-generic-hand/../../handmodel/testdata/webxr-generic-hand/right.glb", "/assets.go", "/webxr-generic-hand/missing.glb", "/webxr-generic-hand/", "/webxr-generic-hand"} {
		w := get(path)
		if w.Code == 307 || w.Code == 301 { // a path with .., or a directory's without /, is sent to its clean form
			base, _ := url.Parse(path)
			loc, _ := url.Parse(w.Header().Get("Location"))
			w = get(base.ResolveReference(loc).Path)
		}
		if w.Code != 404 {
			t.Errorf("%s: %d, want 404", path, w.Code)
		}
	}
}

// TestAHandWithoutASkinIsTheWebXRHandOnItsOpenXRJoints: a procedural
// hand reaches the page with the address of its side's WebXR hand, a
// shipped file, and the 26 OpenXR joints, each named as a bone of that
// file (but the palm, which WebXR lacks) and placed, on the link poses of
// a posed hand, where the hand model puts the joint (float32 on the
// wire); a hand with a skin of its own carries neither.
func TestAHandWithoutASkinIsTheWebXRHandOnItsOpenXRJoints(t *testing.T) {
	for _, right := range []bool{false, true} {
		params := handmodel.DefaultParams
		params.Right = right
		hand, err := handmodel.New(params)
		if err != nil {
			t.Fatal(err)
		}
		h := NewHand("hand", hand, bodyOf(t, hand))
		glb, err := fs.ReadFile(Assets, h.XRHand)
		if err != nil {
			t.Fatalf("right %v: the hand's WebXR hand %q: %v", right, h.XRHand, err)
		}
		skin, err := handmodel.ReadSkin(glb, nil)
		if err != nil {
			t.Fatal(err)
		}
		bones := map[string]bool{}
		for _, n := range skin.Joints {
			bones[n] = true
		}
		if len(h.XR) != int(handmodel.NumXRJoints) {
			t.Fatalf("right %v: %d OpenXR joints, want %d", right, len(h.XR), handmodel.NumXRJoints)
		}
		q := handmodel.Angles{}
		for j := range q {
			q[j] = 0.3
		}
		links := make([]geom.Transform, hand.NumLinks())
		hand.Pose(&q, geom.Identity(), links)
		places := hand.XRJoints()
		named := 0
		for j, x := range h.XR {
			if bones[x.Name] {
				named++
			}
			if x.Link < 0 || int(x.Link) >= len(h.Links) {
				t.Fatalf("joint %s rides on link %d of %d", x.Name, x.Link, len(h.Links))
			}
			o := x.Offset
			off, err := geom.FromQuat(mgl64.Quat{W: float64(o[6]), V: mgl64.Vec3{float64(o[3]), float64(o[4]), float64(o[5])}}, geom.Vec3{X: float64(o[0]), Y: float64(o[1]), Z: float64(o[2])})
			if err != nil {
				t.Fatal(err)
			}
			got, want := links[x.Link].Mul(off), places[j].Pose(links[places[j].Link])
			turn := 0.0
			for k := range got.R {
				turn = max(turn, math.Abs(got.R[k]-want.R[k]))
			}
			if d := got.T.Sub(want.T).Len(); d > 1e-6 || turn > 1e-6 {
				t.Errorf("right %v: joint %s is %.2g m from the hand model's, its axes %.2g off", right, x.Name, d, turn)
			}
		}
		if named != len(skin.Joints) || len(skin.Joints) != int(handmodel.NumXRJoints)-1 {
			t.Errorf("right %v: %d of the page's joints name one of the WebXR hand's %d bones, want all 25", right, named, len(skin.Joints))
		}
	}
	skinned, err := handmodel.New(handmodel.Params{Right: true, Mesh: filepath.Join("..", "handmodel", "testdata", "webxr-generic-hand", "right.glb")})
	if err != nil {
		t.Fatal(err)
	}
	if h := NewHand("hand", skinned, bodyOf(t, skinned)); h.Skin == nil || h.XR != nil || h.XRHand != "" {
		t.Errorf("a skinned hand carries skin %v, %d OpenXR joints, WebXR hand %q; want its skin alone", h.Skin != nil, len(h.XR), h.XRHand)
	}
}

// bodyOf is hand's body of links, as the daemon builds it.
func bodyOf(t *testing.T, hand *handmodel.Hand) *cab.Body {
	t.Helper()
	part, err := handcontact.NewHand(hand)
	if err != nil {
		t.Fatal(err)
	}
	return part.Hier.Body
}
