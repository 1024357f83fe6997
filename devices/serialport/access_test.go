package serialport

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

func TestAccessFollowsTheModeBitsAndSaysWhatToDo(t *testing.T) {
	const dialout = 20
	user := Creds{User: "ana", UID: 1000, Groups: []uint32{1000, dialout}, UserGroup: []uint32{1000, dialout}}
	notYet := Creds{User: "ana", UID: 1000, Groups: []uint32{1000}, UserGroup: []uint32{1000, dialout}}
	outsider := Creds{User: "bo", UID: 1001, Groups: []uint32{1001}, UserGroup: []uint32{1001}}
	root := Creds{User: "root", UID: 0, Groups: []uint32{0}, UserGroup: []uint32{0}}
	port := Node{UID: 0, GID: dialout, Perm: 0o660}
	tests := []struct {
		name string
		c    Creds
		n    Node
		ok   bool
		says string
	}{
		{"in dialout", user, port, true, ""},
		{"root", root, Node{Perm: 0o600}, true, ""},
		{"owner", outsider, Node{UID: 1001, GID: dialout, Perm: 0o600}, true, ""},
		{"owner without write", outsider, Node{UID: 1001, GID: dialout, Perm: 0o460}, false, "bo owns it, but its mode 0460"},
		{"world-writable", outsider, Node{GID: dialout, Perm: 0o666}, true, ""},
		{"not in dialout", outsider, port, false, "bo is not in group"},
		{"added, not logged in again", notYet, port, false, "log out and back in"},
		{"root-only node", user, Node{GID: 0, Perm: 0o600}, false, "mode 0600"},
		{"group read-only", user, Node{GID: dialout, Perm: 0o640}, false, "mode 0640"},
	}
	for _, tc := range tests {
		ok, fix := tc.c.Access(tc.n)
		if ok != tc.ok || !strings.Contains(fix, tc.says) || (ok && fix != "") {
			t.Errorf("%s: got %v %q, want %v and a fix saying %q", tc.name, ok, fix, tc.ok, tc.says)
		}
	}
}

func TestCurrentCredsAreThisProcesss(t *testing.T) {
	c, err := CurrentCreds()
	if err != nil {
		t.Fatal(err)
	}
	if c.User == "" || len(c.Groups) == 0 {
		t.Fatalf("%+v", c)
	}
	n, err := StatNode(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if ok, fix := c.Access(n); !ok {
		t.Errorf("this process may not use a directory it made: %s", fix)
	}
}

// TestAPortThatIsNotThereIsSaidOnce: opening a missing port names it
// once ("serialport: open PATH: no such file or directory", and the
// hint), not twice as the wrapped os error did ("open PATH: open PATH:
// ..."), and stays a not-exist error.
func TestAPortThatIsNotThereIsSaidOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ttyUSB9")
	_, err := claimPort(path)
	if err == nil || strings.Count(err.Error(), path) != 1 || !strings.HasPrefix(err.Error(), "serialport: open "+path+": no such file or directory") || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("got %v", err)
	}
}
