package oscquery

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/gloved/gloved/osc"
)

// Hand is one configured hand: the name in its addresses and what its
// repeated arguments repeat for.
type Hand struct {
	Name  string
	Shape osc.Shape
}

// Space is what an address space is built for: the addresses' prefix
// (osc.prefix), the hands, and the root's description.
type Space struct {
	Prefix      string
	Hands       []Hand
	Description string
}

// Tree is a built address space: its root and every node by path, each
// with its JSON made once. It is not changed after it is built.
type Tree struct {
	Root  *Node
	nodes map[string]*Node
	json  map[string][]byte
}

// notAddress are the characters an OSC address segment may not hold (the
// pattern characters, space and #).
const notAddress = " #*,?[]{}/"

// Tree builds the address space of the method lists (osc.Methods, and
// other contracts described the same way): a hand's methods once per
// hand, the others once. An address two lists describe with the same
// type tags is one method whose ACCESS is both's; with other type tags it
// is an error, as is an address that is not a valid OSC address.
func (s Space) Tree(lists ...[]osc.Method) (*Tree, error) {
	root := &Node{FullPath: "/", Description: s.Description}
	for _, list := range lists {
		for i := range list {
			m := &list[i]
			hands := s.Hands
			if !m.ForHand() {
				hands = []Hand{{}}
			}
			for _, h := range hands {
				if err := insert(root, m, m.Address(s.Prefix, h.Name), h.Shape); err != nil {
					return nil, err
				}
			}
		}
	}
	for _, h := range s.Hands {
		if n := find(root, s.Prefix+"/"+h.Name); n != nil && n.Type == "" {
			n.Description = "The hand " + h.Name + ": what gloved sends about it and what it accepts for it."
		}
	}
	t := &Tree{Root: root, nodes: map[string]*Node{}, json: map[string][]byte{}}
	if err := t.index(root); err != nil {
		return nil, err
	}
	return t, nil
}

// insert adds method m at addr, with its arguments for shape.
func insert(root *Node, m *osc.Method, addr string, shape osc.Shape) error {
	if !strings.HasPrefix(addr, "/") || addr == "/" {
		return fmt.Errorf("oscquery: %q is not an OSC address", addr)
	}
	n := root
	for _, seg := range strings.Split(addr[1:], "/") {
		if seg == "" || strings.ContainsAny(seg, notAddress) {
			return fmt.Errorf("oscquery: %q is not an OSC address", addr)
		}
		next := n.Contents[seg]
		if next == nil {
			if n.Contents == nil {
				n.Contents = map[string]*Node{}
			}
			next = &Node{FullPath: strings.TrimSuffix(n.FullPath, "/") + "/" + seg}
			n.Contents[seg] = next
		}
		n = next
	}
	var leaf Node
	leaf.setArgs(m.Expand(shape))
	switch {
	case n.Access == 0:
		n.Access, n.Type, n.Range, n.Unit, n.Description = int(m.Access), leaf.Type, leaf.Range, leaf.Unit, m.Description
	case n.Type != leaf.Type:
		return fmt.Errorf("oscquery: %s is described twice, with type tags %q and %q", addr, n.Type, leaf.Type)
	default:
		n.Access |= int(m.Access)
	}
	return nil
}

// find returns the node at path under root, or nil.
func find(root *Node, path string) *Node {
	n := root
	for _, seg := range strings.Split(strings.TrimPrefix(path, "/"), "/") {
		if n = n.Contents[seg]; n == nil {
			return nil
		}
	}
	return n
}

// index records n and its sub-nodes by path, with their JSON.
func (t *Tree) index(n *Node) error {
	b, err := json.Marshal(n)
	if err != nil {
		return fmt.Errorf("oscquery: %s: %w", n.FullPath, err)
	}
	t.nodes[n.FullPath], t.json[n.FullPath] = n, b
	for _, c := range n.Contents {
		if err := t.index(c); err != nil {
			return err
		}
	}
	return nil
}

// Node returns the node at path ("/" is the root), or nil.
func (t *Tree) Node(path string) *Node { return t.nodes[path] }

// JSON returns the node at path and everything under it as the
// proposal's JSON object, or nil if there is none.
func (t *Tree) JSON(path string) []byte { return t.json[path] }

// Methods returns every method's path, sorted.
func (t *Tree) Methods() []string {
	var out []string
	for p, n := range t.nodes {
		if n.Type != "" {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}
