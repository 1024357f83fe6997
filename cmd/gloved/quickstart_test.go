package main

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"
)

// quickStartHeading is the README section whose commands
// TestTheQuickStartsEmulatedGloveTouchesTheBall runs.
const quickStartHeading = "## Try it with the emulated glove"

// readmeCommands returns the gloved command lines of the first sh block
// after heading in the README, each as its arguments after
// "go run ./cmd/gloved", comments dropped.
func readmeCommands(t *testing.T, heading string) [][]string {
	t.Helper()
	text, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(text), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README.md has no section %q", heading)
	}
	_, block, ok := strings.Cut(section, "```sh\n")
	block, _, closed := strings.Cut(block, "\n```")
	if !ok || !closed {
		t.Fatalf("README.md's section %q has no sh block", heading)
	}
	var cmds [][]string
	sc := bufio.NewScanner(strings.NewReader(block))
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), " #")
		args, ok := strings.CutPrefix(strings.TrimSpace(line), "go run ./cmd/gloved ")
		if !ok {
			t.Fatalf("README.md's section %q: %q is not a gloved command", heading, sc.Text())
		}
		cmds = append(cmds, strings.Fields(args))
	}
	return cmds
}

// flagValue returns the value after the first of names in args, and its
// index.
func flagValue(t *testing.T, args []string, names ...string) (string, int) {
	t.Helper()
	for i := 0; i+1 < len(args); i++ {
		for _, n := range names {
			if args[i] == n {
				return args[i+1], i + 1
			}
		}
	}
	t.Fatalf("%v has no %s", args, strings.Join(names, " or "))
	return "", 0
}

// replaceOnce replaces old in text with new, failing unless old occurs
// exactly once.
func replaceOnce(t *testing.T, text, old, new string) string {
	t.Helper()
	if n := strings.Count(text, old); n != 1 {
		t.Fatalf("the quick start's config holds %q %d times, want once: the test moves it to a place of its own", old, n)
	}
	return strings.Replace(text, old, new, 1)
}

// TestTheQuickStartsEmulatedGloveTouchesTheBall: the README's "Try it with
// the emulated glove", run as it says through the built binary: its
// emulator command, then the daemon on the shipped config it names. The
// README's link must be the config's port. Only that path and the
// config's ports are moved to the test's own (a temporary link, free
// ports, frames to the test's socket), so that it runs beside other tests.
// The hand streams and touches the ball: its contacts arrive over OSC on a
// real UDP socket.
func TestTheQuickStartsEmulatedGloveTouchesTheBall(t *testing.T) {
	t.Parallel()
	cmds := readmeCommands(t, quickStartHeading)
	if len(cmds) != 2 || len(cmds[0]) == 0 || cmds[0][0] != "emulate" || len(cmds[1]) == 0 || cmds[1][0] != "run" {
		t.Fatalf("the quick start's commands are %q: want gloved emulate, then gloved run", cmds)
	}
	emulate, run := cmds[0], cmds[1]
	readmeLink, i := flagValue(t, emulate, "--link")
	link := filepath.Join(t.TempDir(), "cyberglove")
	emulate[i] = link
	configPath, j := flagValue(t, run, "-c", "--config")
	text, err := os.ReadFile(filepath.Join("../..", configPath))
	if err != nil {
		t.Fatal(err)
	}
	sock, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer sock.Close()
	config := replaceOnce(t, string(text), fmt.Sprintf("port = %q", readmeLink), fmt.Sprintf("port = %q", link))
	config = replaceOnce(t, config, `targets = ["127.0.0.1:9430"]`, fmt.Sprintf("targets = [%q]", sock.LocalAddr()))
	config = replaceOnce(t, config, `listen = "127.0.0.1:9431"`, fmt.Sprintf("listen = %q", freeUDP(t)))
	config = replaceOnce(t, config, `listen = "127.0.0.1:8080"`, `listen = "127.0.0.1:0"`)
	run[j] = filepath.Join(t.TempDir(), filepath.Base(configPath))
	if err := os.WriteFile(run[j], []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}

	emu := startGloved(t, "gloved emulate", emulate...)
	waitLink(t, emu, link)
	daemon := startGloved(t, "gloved run", run...)
	statuses, frames := touchesTheBall(t, sock, 20*time.Second)
	if len(statuses) == 0 || statuses[len(statuses)-1] != "streaming" {
		t.Errorf("the hand's statuses were %v: want it streaming", statuses)
	}
	if t.Failed() {
		t.Logf("%d frames; gloved run said:\n%s", frames, daemon.errs.String())
	}
}

// touchesTheBall reads frames from sock until one of a streaming right
// hand holds its contact with the ball, and returns the hand's statuses and
// the count of frames before it; it fails the test if none comes within d.
// A hand waiting for its glove holds its rest pose, which may touch the
// ball too: that contact does not count.
func touchesTheBall(t *testing.T, sock *net.UDPConn, d time.Duration) (statuses []string, frames int) {
	t.Helper()
	buf := make([]byte, 1<<16)
	for deadline := time.Now().Add(d); ; {
		sock.SetReadDeadline(deadline)
		n, err := sock.Read(buf)
		if err != nil {
			t.Errorf("no contact with the ball within %v: %v", d, err)
			return statuses, frames
		}
		p, err := goosc.ParsePacket(string(buf[:n]))
		b, ok := p.(*goosc.Bundle)
		if err != nil || !ok {
			continue
		}
		for _, m := range b.Messages {
			switch m.Address {
			case "/gloved/right/status":
				if s := fmt.Sprint(m.Arguments[0]); len(statuses) == 0 || statuses[len(statuses)-1] != s {
					statuses = append(statuses, s)
				}
			case "/gloved/right/frame":
				frames++
			case "/gloved/right/contact":
				if m.Arguments[1] == "ball" && len(statuses) > 0 && statuses[len(statuses)-1] == "streaming" {
					return statuses, frames
				}
			}
		}
	}
}
