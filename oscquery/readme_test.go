package oscquery

import (
	"bytes"
	"encoding/json"
	"net/netip"
	"testing"

	"github.com/gloved/gloved/internal/readmetest"
	"github.com/gloved/gloved/osc"
)

// TestREADMEShowsWhatIsServed: the README's examples of a node and of
// HOST_INFO are what the server answers (go test -update writes them).
func TestREADMEShowsWhatIsServed(t *testing.T) {
	space := Space{Prefix: "/gloved", Hands: twoHands.Hands[:1]}
	tree, err := space.Tree(osc.Methods())
	if err != nil {
		t.Fatal(err)
	}
	s := New(Options{})
	s.SetTree(tree)
	s.SetHost("gloved-lab", netip.MustParseAddrPort("127.0.0.1:9431"))
	h := s.Handler()
	var b bytes.Buffer
	for _, target := range []string{"/?HOST_INFO", "/gloved/right/pinch", "/gloved/right/pinch?RANGE"} {
		_, body := get(h, "GET", target)
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, []byte(body), "", "  "); err != nil {
			t.Fatal(err)
		}
		b.WriteString("$ curl 'http://127.0.0.1:PORT" + target + "'\n" + pretty.String() + "\n")
	}
	readmetest.Section(t, "oscquery-examples", "```console\n"+b.String()+"```\n")
}
