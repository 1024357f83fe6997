package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestReloadKeepsThePageAndItsBrowsers: a browser watching the live page
// stays connected through a SIGHUP reload and is sent the new config's
// scene, then its frames.
func TestReloadKeepsThePageAndItsBrowsers(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "g.toml")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	page := l.Addr().String()
	l.Close()
	write := func(name string) {
		writeConfig(t, cfgPath, hand(name, "sim")+sections{listen: freeUDPPort(t)}.String()+fmt.Sprintf("[view]\nlisten = %q\n[log]\nlevel = \"error\"\n", page))
	}
	write("right")
	reload := make(chan os.Signal, 1)
	svc := Service{Path: cfgPath, Log: io.Discard, Reload: reload}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- svc.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()

	var c *websocket.Conn
	for deadline := time.Now().Add(10 * time.Second); c == nil; time.Sleep(20 * time.Millisecond) {
		c, _, err = websocket.Dial(ctx, "ws://"+page+"/ws", nil)
		if err != nil && time.Now().After(deadline) {
			t.Fatal(err)
		}
	}
	defer c.CloseNow()
	c.SetReadLimit(64 << 20)
	// read returns the next message's type and its hands' names.
	read := func() (string, []string) {
		t.Helper()
		rctx, rcancel := context.WithTimeout(ctx, 10*time.Second)
		defer rcancel()
		_, data, err := c.Read(rctx)
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Type  string
			Hands []struct {
				Name string
				Hand int
			}
		}
		json.Unmarshal(data, &m)
		var names []string
		for _, h := range m.Hands {
			names = append(names, h.Name)
		}
		return m.Type, names
	}
	if typ, hands := read(); typ != "scene" || strings.Join(hands, ",") != "right" {
		t.Fatalf("first message %s %v, want the scene with the right hand", typ, hands)
	}
	c.Write(ctx, websocket.MessageText, []byte(`{"type":"next"}`))
	if typ, _ := read(); typ != "frame" {
		t.Fatalf("got %s, want a frame", typ)
	}
	write("lefty")
	reload <- os.Interrupt
	c.Write(ctx, websocket.MessageText, []byte(`{"type":"next"}`))
	for {
		typ, hands := read()
		if typ == "scene" {
			if strings.Join(hands, ",") != "lefty" {
				t.Fatalf("after the reload the page got hands %v, want lefty", hands)
			}
			break
		}
		c.Write(ctx, websocket.MessageText, []byte(`{"type":"next"}`))
	}
	c.Write(ctx, websocket.MessageText, []byte(`{"type":"next"}`))
	if typ, _ := read(); typ != "frame" {
		t.Fatalf("got %s after the reload, want the new daemon's frames", typ)
	}
}
