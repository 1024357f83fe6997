package serialport

import (
	"fmt"
	"os"
	"os/user"
	"slices"
	"strconv"

	"golang.org/x/sys/unix"
)

// Creds are who is asking: the process's user and groups, and the groups
// the account is in (which differ from the process's until the user logs
// in again after being added to one).
type Creds struct {
	User      string
	UID       uint32
	Groups    []uint32 // the process's: effective and supplementary
	UserGroup []uint32 // the account's, from the group database
}

// CurrentCreds returns the running process's credentials.
func CurrentCreds() (Creds, error) {
	c := Creds{UID: uint32(os.Geteuid()), Groups: []uint32{uint32(os.Getegid())}}
	gs, err := os.Getgroups()
	if err != nil {
		return Creds{}, fmt.Errorf("serialport: groups: %w", err)
	}
	for _, g := range gs {
		c.Groups = append(c.Groups, uint32(g))
	}
	u, err := user.LookupId(strconv.Itoa(int(c.UID)))
	if err != nil {
		c.User = strconv.Itoa(int(c.UID)) // no entry: the process's groups are all there is
		c.UserGroup = c.Groups
		return c, nil
	}
	c.User = u.Username
	ids, err := u.GroupIds()
	if err != nil {
		return Creds{}, fmt.Errorf("serialport: groups of %s: %w", u.Username, err)
	}
	for _, id := range ids {
		if n, err := strconv.ParseUint(id, 10, 32); err == nil {
			c.UserGroup = append(c.UserGroup, uint32(n))
		}
	}
	return c, nil
}

// InGroup reports whether the account is in group gid, and whether this
// process (this login) is.
func (c Creds) InGroup(gid uint32) (account, process bool) {
	return slices.Contains(c.UserGroup, gid), slices.Contains(c.Groups, gid)
}

// Node is a device node's owner, group and permission bits.
type Node struct {
	UID, GID uint32
	Perm     uint32 // the low nine mode bits
}

// StatNode returns the node at path.
func StatNode(path string) (Node, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return Node{}, fmt.Errorf("serialport: %s: %w", path, err)
	}
	return Node{UID: st.Uid, GID: st.Gid, Perm: st.Mode & 0o777}, nil
}

// Access says whether c may open n for reading and writing, and if not,
// what to do about it (one sentence).
func (c Creds) Access(n Node) (ok bool, fix string) {
	const rw = 0o6
	switch {
	case c.UID == 0:
		return true, ""
	case c.UID == n.UID:
		if n.Perm>>6&rw == rw {
			return true, ""
		}
	case slices.Contains(c.Groups, n.GID):
		if n.Perm>>3&rw == rw {
			return true, ""
		}
	default:
		if n.Perm&rw == rw {
			return true, ""
		}
	}
	group := groupName(n.GID)
	account, process := c.InGroup(n.GID)
	switch {
	case c.UID == n.UID:
		return false, fmt.Sprintf("%s owns it, but its mode %04o does not let its owner read and write it: sudo chmod u+rw on it", c.User, n.Perm)
	case n.Perm>>3&rw != rw:
		return false, fmt.Sprintf("only %s may open it (mode %04o): the udev rule (`gloved ports` prints one) gives it to group dialout, mode 0660", userName(n.UID), n.Perm)
	case account && !process:
		return false, fmt.Sprintf("%s is in group %s, but this login is not yet: log out and back in (or run `newgrp %s`)", c.User, group, group)
	default:
		return false, fmt.Sprintf("%s is not in group %s, which may open it: sudo usermod -aG %s %s, then log out and back in", c.User, group, group, c.User)
	}
}

func groupName(gid uint32) string {
	if g, err := user.LookupGroupId(strconv.Itoa(int(gid))); err == nil {
		return g.Name
	}
	return strconv.Itoa(int(gid))
}

func userName(uid uint32) string {
	if u, err := user.LookupId(strconv.Itoa(int(uid))); err == nil {
		return u.Username
	}
	return strconv.Itoa(int(uid))
}

// DialoutGID returns the dialout group's id, the group serial ports belong
// to on Debian and most distributions (ok false if there is none).
func DialoutGID() (gid uint32, ok bool) {
	g, err := user.LookupGroup("dialout")
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseUint(g.Gid, 10, 32)
	return uint32(n), err == nil
}
