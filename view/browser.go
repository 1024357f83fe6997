package view

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"

	"github.com/coder/websocket"
)

// maxRequest bounds what a browser may send in one message.
const maxRequest = 4096

// request is what the page asks: "next" (the next live frames, once any
// hand has a newer one) or "at" (every hand's timeline frame at T s); or
// what it answers to a calibration shown ("answer").
type request struct {
	Type string  `json:"type"`
	T    float64 `json:"t"`
	Answer
}

// browser is one connected page.
type browser struct {
	wake    chan struct{}
	req     chan request
	cursors []cursor
	pend    pending
	skipped uint64
	// calib is the calibration state this browser was last sent.
	calib atomic.Uint64
}

// frameMsg is the message carrying hand frames.
type frameMsg struct {
	Type  string      `json:"type"`
	Hands []handFrame `json:"hands"`
	// Skipped counts, over all hands, the frames this browser never saw.
	Skipped uint64 `json:"skipped"`
}

// serveWS streams to one browser, if fewer than MaxViewers watch: one
// more is turned away (503), so that browsers by the thousand cost
// neither the frame loop (Publish wakes each) nor memory.
func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	if !s.admit() {
		s.turnedAway.Add(1)
		s.logf("full", "view: a browser was turned away: the page has as many viewers as it takes", "max_viewers", s.opt.MaxViewers)
		http.Error(w, fmt.Sprintf("gloved view: %d browsers watch already, as many as view.max_viewers allows", s.opt.MaxViewers), http.StatusServiceUnavailable)
		return
	}
	// Each message has its own deadline (WriteTimeout); net/http lifts
	// the request's when the stream takes the connection over.
	c, err := websocket.Accept(w, r, nil) // refuses other origins
	if err != nil {
		s.leave()
		return
	}
	c.SetReadLimit(maxRequest)
	b := &browser{wake: make(chan struct{}, 1), req: make(chan request, 1)}
	s.addBrowser(b)
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	// The reader's context is not the server's: a Read whose context ends
	// closes the connection at once, and the server's closing would then
	// race the close below that tells the browser why. It ends with the
	// connection, or with the handler.
	readCtx, stopReading := context.WithCancel(context.Background())
	defer stopReading()
	go b.read(readCtx, s, c, cancel)
	err = s.stream(ctx, c, b)
	s.removeBrowser(b) // before it is counted: Stats never shows it both gone and connected; frees its place
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		s.dropped.Add(1)
		s.logf("slow", "view: a browser did not take a message in time; disconnected", "timeout", s.opt.WriteTimeout.String())
		c.Close(websocket.StatusPolicyViolation, "too slow")
	case s.ctx.Err() != nil:
		// The server closes when gloved stops, and when a reload
		// replaces it (its options changed): the reason says both.
		c.Close(websocket.StatusGoingAway, closingReason)
	default:
		c.CloseNow()
	}
}

// closingReason is what a browser is told when the page's server closes.
const closingReason = "gloved stopped or reloaded its page's server: reconnect"

// read passes the browser's requests on, the newest replacing one not yet
// served, and its answers to the server; a malformed request or a closed
// connection ends the browser.
func (b *browser) read(ctx context.Context, s *Server, c *websocket.Conn, cancel context.CancelFunc) {
	defer cancel()
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		var q request
		if json.Unmarshal(data, &q) != nil || (q.Type != "next" && q.Type != "at" && q.Type != "answer") ||
			(q.Type == "answer" && (!q.Answer.valid() || !s.answer(q.Answer))) {
			c.Close(websocket.StatusUnsupportedData, "unknown request")
			return
		}
		if q.Type == "answer" {
			continue
		}
		select {
		case <-b.req:
		default:
		}
		b.req <- q
	}
}

// stream sends the scene (and a calibration shown), then answers
// requests, until the browser or the server goes.
func (s *Server) stream(ctx context.Context, c *websocket.Conn, b *browser) error {
	var gen generations
	var q request
	for {
		if err := s.sendState(ctx, c, b, &gen); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-b.wake:
			continue // the scene may have changed
		case q = <-b.req:
		}
		for q.Type == "next" {
			if err := s.sendState(ctx, c, b, &gen); err != nil {
				return err
			}
			msg, ok := s.collect(b)
			if ok {
				if err := s.write(ctx, c, msg); err != nil {
					return err
				}
				break
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-b.wake:
			case q = <-b.req:
			}
		}
		if q.Type == "at" {
			if err := s.write(ctx, c, s.at(q.T)); err != nil {
				return err
			}
		}
	}
}

// generations are the versions of the server's state a browser has.
type generations struct{ scene, calib uint64 }

// sendState sends the scene, then the calibration, each if it changed
// since the browser got it.
func (s *Server) sendState(ctx context.Context, c *websocket.Conn, b *browser, gen *generations) error {
	s.mu.Lock()
	scene, sg, calib, cg := s.scene, s.sceneGen, s.calib, s.calibGen
	s.mu.Unlock()
	if sg != gen.scene && scene != nil {
		gen.scene = sg
		if err := s.writeRaw(ctx, c, scene); err != nil {
			return err
		}
	}
	if cg != gen.calib && calib != nil && scene != nil {
		gen.calib = cg
		if err := s.writeRaw(ctx, c, calib); err != nil {
			return err
		}
		b.calib.Store(cg)
	}
	return nil
}

// writeRaw writes msg within WriteTimeout. The server's closing does not
// cut a write short: a Write whose context ends closes the connection at
// once, and the browser would then never be told why (the close that
// says so comes once the stream sees the server closed, after the write).
func (s *Server) writeRaw(ctx context.Context, c *websocket.Conn, msg []byte) error {
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.opt.WriteTimeout)
	defer cancel()
	return c.Write(wctx, websocket.MessageText, msg)
}

// collect takes every hand's frame newer than the browser has seen.
func (s *Server) collect(b *browser) (frameMsg, bool) {
	s.mu.Lock()
	slots := s.slots
	s.mu.Unlock()
	for len(b.cursors) < len(slots) {
		b.cursors = append(b.cursors, cursor{})
	}
	msg := frameMsg{Type: "frame", Hands: []handFrame{}}
	for i, sl := range slots {
		if !sl.take(&b.cursors[i], &b.pend) {
			continue
		}
		b.skipped += b.pend.skipped
		s.skipped.Add(b.pend.skipped)
		h := convert(i, &b.pend.frame, &b.pend.info)
		h.Times, h.Skipped, h.Live = append([]float32{}, b.pend.times...), b.skipped, true
		msg.Hands = append(msg.Hands, h)
	}
	msg.Skipped = b.skipped
	return msg, len(msg.Hands) > 0
}

// at is every hand's timeline frame at t seconds.
func (s *Server) at(t float64) frameMsg {
	s.mu.Lock()
	tl := s.timeline
	s.mu.Unlock()
	msg := frameMsg{Type: "frame", Hands: []handFrame{}}
	if tl != nil {
		msg.Hands = tl.at(t, msg.Hands)
	}
	return msg
}

func (s *Server) write(ctx context.Context, c *websocket.Conn, msg frameMsg) error {
	data, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	s.sent.Add(uint64(len(msg.Hands))) // before the browser can have it
	return s.writeRaw(ctx, c, data)
}

// admit takes a place among the viewers, if one is free.
func (s *Server) admit() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.viewers >= s.opt.MaxViewers {
		return false
	}
	s.viewers++
	return true
}

// leave frees a place admit took for a browser never added.
func (s *Server) leave() {
	s.mu.Lock()
	s.viewers--
	s.mu.Unlock()
}

func (s *Server) addBrowser(b *browser) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := *s.browsers.Load()
	next := append(append(make([]*browser, 0, len(old)+1), old...), b)
	s.browsers.Store(&next)
}

// removeBrowser takes b off the list and frees its place, at once: a
// browser gone from Stats leaves its place to another.
func (s *Server) removeBrowser(b *browser) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.viewers--
	old := *s.browsers.Load()
	next := make([]*browser, 0, len(old))
	for _, x := range old {
		if x != b {
			next = append(next, x)
		}
	}
	s.browsers.Store(&next)
}
