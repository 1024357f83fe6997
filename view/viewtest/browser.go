package viewtest

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// Flags start Chromium headless and quiet, with software WebGL
// (SwiftShader), on a machine without a GPU or network beyond loopback.
var Flags = []string{
	"--headless", "--no-sandbox", "--disable-gpu", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
	"--disable-quic", "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
	"--disable-component-update", "--disable-sync", "--disable-extensions", "--mute-audio",
	"--hide-scrollbars", "--window-size=1280,800",
}

// Path returns the Chromium binary to use: $CHROMIUM, else the first of
// chromium and chromium-browser on PATH; "" if there is none.
func Path() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Browser is a running headless Chromium with one page.
type Browser struct {
	cmd  *exec.Cmd
	dir  string
	conn *websocket.Conn
	ctx  context.Context
	stop context.CancelFunc

	id      atomic.Int64
	mu      sync.Mutex
	waiting map[int64]chan reply
	// Console collects the page's console messages and exceptions.
	Console []string
}

type reply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// Launch starts Chromium with its own empty profile in a temporary
// directory and opens about:blank.
func Launch(path string) (*Browser, error) {
	dir, err := os.MkdirTemp("", "gloved-chromium-")
	if err != nil {
		return nil, err
	}
	args := append(append([]string{}, Flags...), "--user-data-dir="+dir, "--remote-debugging-port=0", "about:blank")
	cmd := exec.Command(path, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("viewtest: starting %s: %w", path, err)
	}
	b := &Browser{cmd: cmd, dir: dir, waiting: map[int64]chan reply{}}
	b.ctx, b.stop = context.WithCancel(context.Background())
	if err := b.attach(); err != nil {
		b.Close()
		return nil, fmt.Errorf("viewtest: %w (chromium said: %s)", err, strings.TrimSpace(lastLines(stderr.String(), 5)))
	}
	return b, nil
}

// attach finds the DevTools port Chromium chose and connects to its page.
func (b *Browser) attach() error {
	var port string
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		data, err := os.ReadFile(filepath.Join(b.dir, "DevToolsActivePort"))
		if err == nil && bytes.IndexByte(data, '\n') > 0 {
			port = string(data[:bytes.IndexByte(data, '\n')])
			break
		}
		if time.Now().After(deadline) {
			return errors.New("chromium did not open its DevTools port within 20 s")
		}
	}
	resp, err := http.Get("http://127.0.0.1:" + port + "/json/list")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var targets []struct {
		Type, WebSocketDebuggerURL string
	}
	if err := json.NewDecoder(resp.Body).Decode(&targets); err != nil {
		return fmt.Errorf("DevTools target list: %w", err)
	}
	for _, t := range targets {
		if t.Type == "page" {
			b.conn, _, err = websocket.Dial(b.ctx, t.WebSocketDebuggerURL, nil)
			if err != nil {
				return err
			}
			b.conn.SetReadLimit(64 << 20)
			go b.read()
			if _, err := b.call("Runtime.enable", nil); err != nil {
				return err
			}
			_, err = b.call("Page.enable", nil)
			return err
		}
	}
	return errors.New("chromium has no page")
}

// read dispatches replies to their calls and keeps console messages.
func (b *Browser) read() {
	for {
		_, data, err := b.conn.Read(b.ctx)
		if err != nil {
			b.mu.Lock()
			for id, ch := range b.waiting {
				close(ch)
				delete(b.waiting, id)
			}
			b.mu.Unlock()
			return
		}
		var m struct {
			ID     int64           `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			reply
		}
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		if m.ID != 0 {
			b.mu.Lock()
			ch := b.waiting[m.ID]
			delete(b.waiting, m.ID)
			b.mu.Unlock()
			if ch != nil {
				ch <- m.reply
			}
			continue
		}
		if m.Method == "Runtime.consoleAPICalled" || m.Method == "Runtime.exceptionThrown" {
			b.mu.Lock()
			b.Console = append(b.Console, m.Method+": "+string(m.Params))
			b.mu.Unlock()
		}
	}
}

// call sends a CDP command and waits up to 30 s for its result.
func (b *Browser) call(method string, params any) (json.RawMessage, error) {
	id := b.id.Add(1)
	msg, err := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	if err != nil {
		return nil, err
	}
	ch := make(chan reply, 1)
	b.mu.Lock()
	b.waiting[id] = ch
	b.mu.Unlock()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if err := b.conn.Write(ctx, websocket.MessageText, msg); err != nil {
		return nil, err
	}
	select {
	case r, ok := <-ch:
		if !ok {
			return nil, fmt.Errorf("viewtest: %s: the browser went away", method)
		}
		if r.Error != nil {
			return nil, fmt.Errorf("viewtest: %s: %s", method, r.Error.Message)
		}
		return r.Result, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("viewtest: %s: no answer in 30 s", method)
	}
}

// Navigate loads url in the page.
func (b *Browser) Navigate(url string) error {
	_, err := b.call("Page.navigate", map[string]any{"url": url})
	return err
}

// Eval evaluates a JavaScript expression in the page (awaiting a promise)
// and decodes its value, which must be JSON, into out (nil: ignored).
func (b *Browser) Eval(expr string, out any) error {
	raw, err := b.call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true})
	if err != nil {
		return err
	}
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return err
	}
	if r.Exception != nil {
		return fmt.Errorf("viewtest: %s: %s %s", expr, r.Exception.Text, r.Exception.Exception.Description)
	}
	if out == nil || len(r.Result.Value) == 0 {
		return nil
	}
	return json.Unmarshal(r.Result.Value, out)
}

// WaitFor evaluates a boolean expression every 50 ms until it is true or
// timeout passes.
func (b *Browser) WaitFor(expr string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		var ok bool
		err := b.Eval("!!("+expr+")", &ok)
		if err == nil && ok {
			return nil
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = errors.New("still false")
			}
			return fmt.Errorf("viewtest: waiting %v for %s: %w", timeout, expr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Screenshot returns the page as PNG.
func (b *Browser) Screenshot() ([]byte, error) {
	raw, err := b.call("Page.captureScreenshot", map[string]any{"format": "png"})
	if err != nil {
		return nil, err
	}
	var r struct {
		Data string `json:"data"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(r.Data)
}

// Close stops Chromium and removes its profile.
func (b *Browser) Close() error {
	b.stop()
	if b.conn != nil {
		b.conn.CloseNow()
	}
	if b.cmd.Process != nil {
		b.cmd.Process.Kill()
		b.cmd.Wait()
	}
	return os.RemoveAll(b.dir)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

var _ io.Closer = (*Browser)(nil)
