package oscquery

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
)

// twoHands is the space of a config with a right and a left hand, the
// left one with a forearm link.
var twoHands = Space{Prefix: "/gloved", Description: "test", Hands: []Hand{
	{Name: "right", Shape: osc.Shape{Joints: int(handmodel.NumJoints), Links: handmodel.FingerLinks}},
	{Name: "left", Shape: osc.Shape{Joints: int(handmodel.NumJoints), Links: handmodel.FingerLinks + 1}},
}}

// TestTreeHoldsTheContract: every method of osc.Methods is in the tree,
// once per hand where it is a hand's, with the contract's type tags for
// that hand, its direction as ACCESS, its description, and per argument
// its unit and range (null where it has none); nothing else is a method.
func TestTreeHoldsTheContract(t *testing.T) {
	tree, err := twoHands.Tree(osc.Methods())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, m := range osc.Methods() {
		hands := twoHands.Hands
		if !m.ForHand() {
			hands = []Hand{{}}
		}
		for _, h := range hands {
			addr := m.Address(twoHands.Prefix, h.Name)
			want[addr] = true
			var n Node
			if err := json.Unmarshal(tree.JSON(addr), &n); err != nil {
				t.Fatalf("%s: %v", addr, err)
			}
			args := m.Expand(h.Shape)
			if n.Type != m.TypeTags(h.Shape) || n.Access != int(m.Access) || n.Description != m.Description || n.FullPath != addr {
				t.Errorf("%s: TYPE %q ACCESS %d FULL_PATH %q, want %q %d %q; description %q",
					addr, n.Type, n.Access, n.FullPath, m.TypeTags(h.Shape), m.Access, addr, n.Description)
			}
			for i, a := range args {
				if got := unitAt(n.Unit, i); got != a.Unit {
					t.Errorf("%s argument %d (%s): UNIT %q, want %q", addr, i, a.Name, got, a.Unit)
				}
				if got, want := rangeAt(n.Range, i), rangeOf(a.Range); !reflect.DeepEqual(got, want) {
					t.Errorf("%s argument %d (%s): RANGE %v, want %v", addr, i, a.Name, got, want)
				}
			}
		}
	}
	got := tree.Methods()
	if len(got) != len(want) {
		t.Errorf("%d methods in the tree, want %d: %v", len(got), len(want), got)
	}
	for _, p := range got {
		if !want[p] {
			t.Errorf("%s is in the tree, not in the contract", p)
		}
	}
	links := tree.Node("/gloved/left/links")
	if n := len(links.Type); n != 7*(handmodel.FingerLinks+1) {
		t.Errorf("the left hand's links: %d type tags, want %d", n, 7*(handmodel.FingerLinks+1))
	}
}

func unitAt(u []*string, i int) string {
	if i >= len(u) || u[i] == nil {
		return ""
	}
	return *u[i]
}

func rangeAt(r []*Range, i int) *Range {
	if i >= len(r) {
		return nil
	}
	return r[i]
}

// TestTreeHasTheProposalsShape checks the served JSON, decoded as any
// client would, against the proposal's structure (CheckJSON), and
// CheckJSON against trees that break it.
func TestTreeHasTheProposalsShape(t *testing.T) {
	tree, err := twoHands.Tree(osc.Methods())
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckJSON(tree.JSON("/")); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{
		`{"FULL_PATH":"/x","CONTENTS":{}}`,
		`{"FULL_PATH":"/","CONTENTS":{"a":{"FULL_PATH":"/b","TYPE":"f","ACCESS":1}}}`,
		`{"FULL_PATH":"/","CONTENTS":{"a":{"FULL_PATH":"/a","ACCESS":1}}}`,
		`{"FULL_PATH":"/","CONTENTS":{"a":{"FULL_PATH":"/a","TYPE":"f","ACCESS":0}}}`,
		`{"FULL_PATH":"/","CONTENTS":{"a":{"FULL_PATH":"/a","TYPE":"f","ACCESS":4}}}`,
		`{"FULL_PATH":"/","CONTENTS":{"a":{"FULL_PATH":"/a","TYPE":"q","ACCESS":1}}}`,
		`{"FULL_PATH":"/","CONTENTS":{"a":{"FULL_PATH":"/a","TYPE":"ff","RANGE":[null]}}}`,
		`{"FULL_PATH":"/","CONTENTS":{"a":{"FULL_PATH":"/a","TYPE":"f","RANGE":[{"LOW":1}]}}}`,
		`{"FULL_PATH":"/","CONTENTS":{"a":{"FULL_PATH":"/a","TYPE":"f","UNIT":[3]}}}`,
		`{"FULL_PATH":"/","CONTENTS":{"a b":{"FULL_PATH":"/a b","TYPE":"f"}}}`,
		`[]`,
	} {
		if CheckJSON([]byte(bad)) == nil {
			t.Errorf("%s passed", bad)
		}
	}
	if err := CheckJSON([]byte(`{"FULL_PATH":"/","ACCESS":0,"CONTENTS":{"a":{"FULL_PATH":"/a","TYPE":"i[ff]i","UNIT":"distance.m","RANGE":[null,[{"MIN":0},{"VALS":[1]}],{"MAX":1}]}}}`)); err != nil {
		t.Errorf("the proposal's forms: %v", err)
	}
}

// TestTreeJoinsContracts: a second contract's methods join the tree; an
// address both describe with the same type tags is one method that is
// both sent and accepted (ACCESS 3); with other type tags it is an error,
// as is an address that is not an OSC address.
func TestTreeJoinsContracts(t *testing.T) {
	sent := osc.Method{Path: "/avatar/parameters/{hand}Curl", Access: osc.Sent, Args: []osc.Arg{{Type: 'f', Name: "curl", Range: osc.Between(0, 1)}}, Description: "d", When: "w"}
	accepted := sent
	accepted.Access = osc.Accepted
	tree, err := twoHands.Tree(osc.Methods(), []osc.Method{sent}, []osc.Method{accepted})
	if err != nil {
		t.Fatal(err)
	}
	n := tree.Node("/avatar/parameters/rightCurl")
	if n == nil || n.Access != 3 || n.Type != "f" || tree.Node("/gloved/right/frame") == nil {
		t.Fatalf("joined: %+v", n)
	}
	other := sent
	other.Args = []osc.Arg{{Type: 'i', Name: "curl"}}
	if _, err := twoHands.Tree([]osc.Method{sent}, []osc.Method{other}); err == nil || !strings.Contains(err.Error(), "described twice") {
		t.Errorf("two type tags at one address: %v", err)
	}
	for _, path := range []string{"/a b/{hand}", "/a//b", "/a/*", "relative", "/"} {
		bad := sent
		bad.Path = path
		if _, err := twoHands.Tree([]osc.Method{bad}); err == nil {
			t.Errorf("%q: no error", path)
		}
	}
}

// BenchmarkTree is building the tree of two hands, once per config.
func BenchmarkTree(b *testing.B) {
	ms := osc.Methods()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := twoHands.Tree(ms); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleSpace_Tree() {
	space := Space{Prefix: "/gloved", Hands: []Hand{{Name: "right", Shape: osc.Shape{Joints: 22, Links: 16}}}}
	tree, err := space.Tree(osc.Methods())
	if err != nil {
		panic(err)
	}
	fmt.Println(string(tree.JSON("/gloved/right/pinch")))
	// Output:
	// {"FULL_PATH":"/gloved/right/pinch","DESCRIPTION":"A finger's pinch against the thumb beginning (within self.pinch_on_m) or ending (beyond self.pinch_off_m), with the distance from the thumb's distal phalanx to the finger's two outer phalanges.","ACCESS":1,"TYPE":"sif","RANGE":[{"VALS":["index","middle","ring","little"]},{"MIN":0,"MAX":1},{"MIN":0}],"UNIT":[null,null,"distance.m"]}
}
