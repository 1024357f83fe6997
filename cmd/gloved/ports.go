package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/gloved/gloved/devices/driver"
	"github.com/gloved/gloved/devices/serialport"
	"github.com/gloved/gloved/internal/userfile"
	"github.com/gloved/gloved/session"
)

// probeBauds are the rates `ports --probe` talks at: CyberGlove units run
// at 115200 (current) or 19200 and 38400 (old ones).
var probeBauds = []int{9600, 19200, 38400, 57600, 115200}

func runPorts(_ context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("ports", "gloved ports [--probe] [--baud B] [--timeout D] [PATH ...]", out)
	probe := fs.Bool("probe", false, "ask each port whether a glove is on it (a CyberGlove: writes ^C ?S ?G ?R; an OpenGloves glove: writes Z and reads its lines), then put the line's settings back")
	baud := fs.Int("baud", session.DefaultBaud, "the baud rate to probe at")
	timeout := fs.Duration("timeout", serialport.DefaultProbeOpts.Reply, "how long each query waits for its reply")
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if !slices.Contains(probeBauds, *baud) {
		return fmt.Errorf("%w: --baud %d: CyberGlove units run at 115200, old ones at 19200 or 38400 (want one of %v)", errUsage, *baud, probeBauds)
	}
	if *timeout <= 0 || *timeout > 10*time.Second {
		return fmt.Errorf("%w: --timeout %v: want more than 0 and at most 10s", errUsage, *timeout)
	}
	ports, err := listPorts(paths)
	if err != nil {
		return err
	}
	if len(ports) == 0 {
		fmt.Fprintln(out, "no serial ports here: a USB adapter appears as /dev/ttyUSB* or /dev/ttyACM* once plugged in (`dmesg | tail` says which); name a port to look at it, e.g. an emulator's: gloved ports /dev/pts/3")
	}
	creds, err := serialport.CurrentCreds()
	if err != nil {
		return err
	}
	rows := make([]portRow, len(ports))
	for i, p := range ports {
		rows[i] = portRow{Port: p}
		rows[i].access(creds)
	}
	if *probe {
		probeRows(rows, len(paths) > 0, serialport.ProbeOpts{Baud: *baud, Reply: *timeout})
	}
	printPorts(out, rows, *probe)
	printRules(out, rows)
	printAccessNotes(out, rows, creds)
	return nil
}

// listPorts returns the named ports, or every serial port there is.
func listPorts(paths []string) ([]serialport.Port, error) {
	if len(paths) == 0 {
		return serialport.System.List()
	}
	ports := make([]serialport.Port, len(paths))
	for i, path := range paths {
		p, err := serialport.System.Describe(path)
		if err != nil {
			return nil, err
		}
		ports[i] = p
	}
	return ports, nil
}

// portRow is one port as `gloved ports` shows it.
type portRow struct {
	serialport.Port
	gid   uint32 // the node's group
	ok    bool   // this user may open it
	fix   string // what to do if not
	glove string // what a probe found
}

func (r *portRow) access(c serialport.Creds) {
	n, err := serialport.StatNode(r.Path)
	if err != nil {
		r.fix = err.Error()
		return
	}
	r.gid = n.GID
	r.ok, r.fix = c.Access(n)
}

// probeRows probes every port at once, each within its limit, and each
// device once however many names it was given by (a link and its target
// probed together would take each other's replies). The kernel's console
// is left alone unless it was named.
func probeRows(rows []portRow, named bool, o serialport.ProbeOpts) {
	var wg sync.WaitGroup
	same := map[string][]*portRow{} // by the device's own path
	for i := range rows {
		r := &rows[i]
		if r.Console && !named {
			r.glove = "not probed: the kernel's console is on it (name it to probe it anyway)"
			continue
		}
		dev, err := filepath.EvalSymlinks(r.Path)
		if err != nil {
			dev = r.Path
		}
		same[dev] = append(same[dev], r)
		if len(same[dev]) > 1 {
			continue
		}
		wg.Go(func() {
			u, err := probePort(r.Path, o)
			r.glove = probeVerdict(r.Path, u, err, o.Baud)
		})
	}
	wg.Wait()
	for _, rs := range same {
		for _, r := range rs[1:] {
			r.glove = rs[0].glove
		}
	}
}

// probePort asks each driver that can be probed, in turn, whether its
// glove is on the port, until one says it is. When none does, the first
// answer other than silence is the verdict (a CyberGlove's probe fails on
// a line that streams something else, as an OpenGloves glove's does,
// before the OpenGloves probe is asked).
func probePort(path string, o serialport.ProbeOpts) (string, error) {
	var first error
	var reasons []string // each driver's, when one heard something it could not take
	heard := false
	for _, d := range driver.All() {
		if d.Probe == nil {
			continue
		}
		u, err := serialport.Probe(path, o, d.Probe)
		if err == nil {
			return u, nil
		}
		var busy *serialport.InUseError
		if errors.As(err, &busy) || errors.Is(err, fs.ErrPermission) {
			return "", err
		}
		heard = heard || !errors.Is(err, serialport.ErrNoReply)
		why := strings.TrimPrefix(err.Error(), "serialport: "+path+": ")
		if !strings.HasPrefix(why, d.Name+": ") {
			why = d.Name + ": " + why
		}
		reasons = append(reasons, why)
		if first == nil || errors.Is(first, serialport.ErrNoReply) && !errors.Is(err, serialport.ErrNoReply) {
			first = err
		}
	}
	if first == nil {
		first = fmt.Errorf("serialport: %s: no glove driver probes ports: %w", userfile.Name(path), serialport.ErrNoReply)
	}
	if heard && len(reasons) > 1 {
		// Something answers, and no driver takes it: each says why, not
		// only the first (a line of garbage blamed a CyberGlove's drain).
		return "", fmt.Errorf("no glove identified (%s)", strings.Join(reasons, "; "))
	}
	return "", first
}

// probeVerdict says in a few words what a probe found.
func probeVerdict(path string, u string, err error, baud int) string {
	var busy *serialport.InUseError
	switch {
	case errors.As(err, &busy):
		return "not probed: in use by " + busy.Holder
	case err == nil:
		return u
	case errors.Is(err, serialport.ErrNoReply):
		return fmt.Sprintf("no answer (at %d baud)", baud)
	case errors.Is(err, serialport.ErrHung):
		return "no answer: the port hung"
	case errors.Is(err, fs.ErrPermission):
		return "cannot open it: permission denied (see the note below)"
	}
	return strings.TrimPrefix(err.Error(), "serialport: "+path+": ")
}

func printPorts(out io.Writer, rows []portRow, probed bool) {
	if len(rows) == 0 {
		return
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	head := "PORT\tUSB ID\tSERIAL\tPRODUCT\tACCESS"
	if probed {
		head += "\tGLOVE"
	}
	fmt.Fprintln(tw, head)
	for _, r := range rows {
		serial := r.Serial
		if serial == "" {
			serial = "-"
		}
		access := "yes"
		if !r.ok {
			access = "no"
		}
		what := r.Description()
		if r.Console {
			what += " (the kernel's console)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s", userfile.Name(r.Path), r.USBID(), serial, what, access)
		if probed {
			fmt.Fprintf(tw, "\t%s", r.glove)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// printRules prints each port's udev rule line, ready to paste.
func printRules(out io.Writer, rows []portRow) {
	first := true
	for _, r := range rows {
		rule := serialport.Rule(r.Port, serialport.Link)
		if rule == "" || r.Console {
			continue
		}
		if first {
			fmt.Fprintf(out, "\nudev rules: the glove's port's line, in /etc/udev/rules.d/99-cyberglove.rules, names it /dev/%s (then: sudo udevadm control --reload && sudo udevadm trigger)\n", serialport.Link)
			first = false
		}
		fmt.Fprintf(out, "# %s: %s\n%s\n", userfile.Name(r.Path), r.Description(), rule)
	}
}

// printAccessNotes says, once for each remedy, which ports this user may
// not open and what to do; and whether the user is in dialout at all.
func printAccessNotes(out io.Writer, rows []portRow, c serialport.Creds) {
	var fixes []string
	paths := map[string][]string{}
	for _, r := range rows {
		if r.ok {
			continue
		}
		if paths[r.fix] == nil {
			fixes = append(fixes, r.fix)
		}
		paths[r.fix] = append(paths[r.fix], r.Path)
	}
	if len(fixes) > 0 || c.UID != 0 {
		fmt.Fprintln(out)
	}
	for _, fix := range fixes {
		fmt.Fprintf(out, "note: %s: %s\n", strings.Join(paths[fix], ", "), fix)
	}
	if c.UID == 0 {
		return
	}
	gid, ok := serialport.DialoutGID()
	if !ok {
		fmt.Fprintln(out, "note: this system has no dialout group: give the glove's port to your user with a udev rule (OWNER=)")
		return
	}
	if slices.ContainsFunc(rows, func(r portRow) bool { return !r.ok && r.gid == gid }) {
		return // a port's note above says what to do about dialout
	}
	switch account, process := c.InGroup(gid); {
	case account && process:
		fmt.Fprintf(out, "%s is in the dialout group: serial ports of that group (the udev rule's) can be opened\n", c.User)
	case account:
		fmt.Fprintf(out, "note: %s is in the dialout group, but this login is not yet: log out and back in (or run `newgrp dialout`)\n", c.User)
	default:
		fmt.Fprintf(out, "note: %s is not in the dialout group, which serial ports belong to: sudo usermod -aG dialout %s, then log out and back in\n", c.User, c.User)
	}
}
