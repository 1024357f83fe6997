package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/configs"
	"github.com/gloved/gloved/internal/printable"
	"github.com/gloved/gloved/osc"
)

// watchState is one hand's latest picture.
type watchState struct {
	status   string
	frames   int
	since    time.Time
	fps      float64
	contacts watchList
	near     int
	touches  watchList
	// hands are the contacts with other hands; lod the levels a test
	// against another hand stopped at.
	hands watchList
	lod   watchList
}

// maxWatchedItems bounds each list watch shows of a hand's frame: a
// sender that never sends /frame, which empties them, or sends thousands
// of contacts in one, costs a bounded line and bounded memory. A hand has
// 16 links; a frame's contacts of a few scene objects fit.
const maxWatchedItems = 32

// maxWatchedText bounds each string argument watch shows.
const maxWatchedText = 64

// watchList is what watch shows of one kind of a frame's messages: the
// first maxWatchedItems, and how many came in all.
type watchList struct {
	items []string
	n     int
}

func (l *watchList) add(s string) {
	l.n++
	if len(l.items) < maxWatchedItems {
		l.items = append(l.items, s)
	}
}

func (l *watchList) reset() { l.items, l.n = l.items[:0], 0 }

// String joins the items, saying how many more came.
func (l *watchList) String() string {
	s := strings.Join(l.items, ", ")
	if more := l.n - len(l.items); more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}

func runWatch(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("watch", "gloved watch [--daemon ADDR] [--listen ADDR] [--prefix P] [--for DURATION] [--timeout DURATION]", out)
	daemonAddr := fs.String("daemon", osc.DefaultListen, "the daemon's OSC listen address (subscriptions go there)")
	listen := fs.String("listen", "", "where to receive frames (default: a free port on loopback of the daemon address's IP version, 127.0.0.1 or ::1)")
	prefix := fs.String("prefix", "/gloved", "the daemon's OSC prefix")
	runFor := addLimitFlag(fs, "for", 0, "stop after this long (0: until Ctrl-C)")
	timeout := addLimitFlag(fs, "timeout", 3*time.Second, "fail if the daemon has not answered within this long (0: wait for it)")
	if pos, err := parseInterleaved(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	if err := runFor.check(); err != nil {
		return err
	}
	if err := timeout.check(); err != nil {
		return err
	}
	// Ends the subscription's renewal and the receiving goroutine when the
	// watch does, by a timeout or for want of an answer.
	interrupted := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if runFor.d > 0 {
		ctx, cancel = context.WithTimeout(ctx, runFor.d)
		defer cancel()
	}
	da, err := net.ResolveUDPAddr("udp", *daemonAddr)
	if err != nil {
		return fmt.Errorf("%w: --daemon: %v", errUsage, err)
	}
	// A socket of one IP version cannot send to the other: the
	// subscription would never reach the daemon.
	loopback := "127.0.0.1"
	if da.IP.To4() == nil && da.IP != nil {
		loopback = "::1"
	}
	if *listen == "" {
		*listen = net.JoinHostPort(loopback, "0")
	}
	la, err := net.ResolveUDPAddr("udp", *listen)
	if err != nil {
		return fmt.Errorf("%w: --listen: %v", errUsage, err)
	}
	if la.IP != nil && !la.IP.IsUnspecified() && da.IP != nil && (la.IP.To4() == nil) != (da.IP.To4() == nil) {
		return fmt.Errorf("%w: --listen %s and --daemon %s are of two IP versions, and a subscription cannot go from one to the other: give --listen an address of the daemon's version, or leave it out", errUsage, *listen, *daemonAddr)
	}
	if da.Port == 0 {
		return fmt.Errorf("%w: --daemon %s: port 0 is no daemon's: give the daemon's osc.listen (default %s)", errUsage, *daemonAddr, osc.DefaultListen)
	}
	if ip := da.IP; ip != nil && (ip.IsMulticast() || ip.Equal(net.IPv4bcast) || ip.IsUnspecified()) {
		return fmt.Errorf("%w: --daemon %s: a broadcast, multicast or unspecified address is no daemon's: give the address of the daemon's osc.listen (default %s)", errUsage, *daemonAddr, osc.DefaultListen)
	}
	if err := osc.CheckPrefix(*prefix); err != nil {
		return fmt.Errorf("%w: --prefix %q: %v (the daemon's osc.prefix)", errUsage, printable.String(*prefix), err)
	}
	// On the daemon's own address watch would receive its own requests,
	// and wait for an answer that never comes.
	if la.Port != 0 && la.Port == da.Port && (la.IP.Equal(da.IP) || la.IP.IsUnspecified() && da.IP.IsLoopback()) {
		return fmt.Errorf("%w: --listen %s is the daemon's address (--daemon %s): watch receives frames on an address of its own; leave --listen out for any free port", errUsage, *listen, *daemonAddr)
	}
	conn, err := net.ListenUDP("udp", la)
	if errors.Is(err, syscall.EADDRINUSE) {
		return portInUse("listen", *listen)
	} else if err != nil {
		return cannotListen("listen", *listen, err)
	}
	defer conn.Close()
	me := conn.LocalAddr().(*net.UDPAddr)
	host := me.IP.String()
	if me.IP.IsUnspecified() {
		host = loopback
	}
	s := &subscriber{conn: conn, daemon: da, prefix: *prefix, host: host, port: int32(me.Port)}
	go renew(ctx, func() { s.send("/subscribe") })
	defer s.end()
	fmt.Fprintf(out, "watching %s (subscribing from %s, renewed every 3 s; nothing shows until the daemon answers); Ctrl-C stops\n", *daemonAddr, net.JoinHostPort(host, strconv.Itoa(me.Port)))
	if watchLoop(ctx, receive(ctx, conn, da), timeout.d, *prefix, out, s.validate) || interrupted.Err() != nil {
		return nil
	}
	within := timeout.d
	if runFor.d > 0 && (within == 0 || runFor.d < within) {
		within = runFor.d
	}
	return silence(da, *daemonAddr, *prefix, within, s)
}

// silence is the error of a watch that nothing under prefix reached
// within the time it had, told by what its address shows when asked once
// more to end s's subscription: a daemon that refuses says why, in its
// words; one that answers otherwise under prefix (an unsubscription) sent
// nothing else; a port that refuses (ICMP port unreachable) has no
// daemon; one that neither answers nor refuses holds something that does
// not take prefix: a daemon with another osc.prefix, or another OSC app.
func silence(da *net.UDPAddr, addr, prefix string, within time.Duration, s *subscriber) error {
	check := fmt.Sprintf("check the daemon's osc.prefix (--prefix %s must match it)", prefix)
	s.mu.Lock()
	s.ended = true // the probe below unsubscribes; renewals stop
	s.mu.Unlock()
	state, refused := listening(da, prefix, s.host, s.port)
	switch {
	case refused != "":
		return fmt.Errorf("the daemon at %s sent nothing under %s within %v, and refused watch's subscription of %s: %s", addr, prefix, within, net.JoinHostPort(s.host, strconv.Itoa(int(s.port))), refused)
	case state == portAnswers:
		return fmt.Errorf("the daemon at %s answered but sent nothing under %s within %v: %s", addr, prefix, within, check)
	case state == portOpen:
		return fmt.Errorf("nothing under %s came from %s within %v, though something listens there: %s, or is it another OSC app?", prefix, addr, within, check)
	}
	return fmt.Errorf("no gloved answered at %s within %v: is the daemon running? (gloved run)", addr, within)
}

// portState is what a UDP port showed to one request.
type portState int

const (
	portRefuses portState = iota // nothing listens (or the request could not go)
	portOpen                     // no answer, no refusal
	portAnswers                  // a reply came from it
)

// listening asks the daemon at da, from a socket of its own, to
// unsubscribe host:port (watch's own, which is ending) and says what came
// back within half a second: an answer, with the daemon's reason if it is
// <prefix>/refused, a refusal of the port (on a connected socket, an ICMP
// port unreachable is an error of the read), or nothing.
func listening(da *net.UDPAddr, prefix, host string, port int32) (state portState, refused string) {
	c, err := net.DialUDP("udp", nil, da)
	if err != nil {
		return portRefuses, ""
	}
	defer c.Close()
	b, _ := goosc.NewMessage(prefix+"/unsubscribe", host, port).MarshalBinary()
	if _, err := c.Write(b); err != nil {
		return portRefuses, ""
	}
	c.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
	buf := make([]byte, 65536)
	n, err := c.Read(buf)
	var ne net.Error
	switch {
	case err == nil:
		if m, ok := goosc.ParsePacket(string(buf[:n])); ok == nil {
			if msg, _ := m.(*goosc.Message); msg != nil && msg.Address == prefix+"/refused" && len(msg.Arguments) > 0 {
				refused, _ = msg.Arguments[0].(string)
			}
		}
		return portAnswers, printable.String(refused)
	case errors.As(err, &ne) && ne.Timeout():
		return portOpen, ""
	}
	return portRefuses, ""
}

// subscriber is gloved watch's subscription of its own socket: requests
// go from it to the daemon, carrying the token the daemon sent there once
// one came (a destination that is not loopback proves so that it
// receives what is sent to it).
type subscriber struct {
	conn   *net.UDPConn
	daemon *net.UDPAddr
	prefix string
	host   string
	port   int32

	mu    sync.Mutex
	token string
	ended bool // unsubscribed: nothing more is sent
}

// end unsubscribes the socket, unless silence's probe has (a second
// unsubscribe would be refused, and logged by the daemon, as one with
// nothing to end).
func (s *subscriber) end() {
	s.mu.Lock()
	ended := s.ended
	s.ended = true
	s.mu.Unlock()
	if !ended {
		s.send("/unsubscribe")
	}
}

// send sends prefix+addr (/subscribe, /unsubscribe) for the socket; no
// /subscribe once it has ended.
func (s *subscriber) send(addr string) {
	s.mu.Lock()
	if s.ended && addr == "/subscribe" {
		s.mu.Unlock()
		return
	}
	args := []any{s.host, s.port}
	if s.token != "" {
		args = append(args, s.token)
	}
	s.mu.Unlock()
	b, _ := goosc.NewMessage(s.prefix+addr, args...).MarshalBinary()
	s.conn.WriteToUDP(b, s.daemon)
}

// validate keeps the token the daemon sent (<prefix>/validate) and
// subscribes with it at once.
func (s *subscriber) validate(token string) {
	s.mu.Lock()
	s.token = token
	s.mu.Unlock()
	s.send("/subscribe")
}

// datagram is what arrived on watch's socket, and whether it came from
// the daemon's address: only the daemon's frames and answers (a token, a
// refusal) are taken; anyone may send to the socket.
type datagram struct {
	b          []byte
	fromDaemon bool
}

// receive reads conn from a goroutine of its own until conn is closed or
// ctx ends, and sends each datagram on the channel it returns.
func receive(ctx context.Context, conn *net.UDPConn, daemon *net.UDPAddr) <-chan datagram {
	got := make(chan datagram)
	d := daemon.AddrPort()
	d = netip.AddrPortFrom(d.Addr().Unmap(), d.Port())
	go func() {
		buf := make([]byte, 65536)
		for {
			n, from, err := conn.ReadFromUDPAddrPort(buf)
			if errors.Is(err, net.ErrClosed) {
				return
			}
			if err != nil {
				continue
			}
			from = netip.AddrPortFrom(from.Addr().Unmap(), from.Port())
			select {
			case got <- datagram{append([]byte(nil), buf[:n]...), from == d}:
			case <-ctx.Done():
				return
			}
		}
	}()
	return got
}

// renew subscribes now and every few seconds until ctx ends: a
// subscription is a lease that lapses unless renewed (osc.lease_s, 10 s by
// default), and a restarted daemon forgets its subscribers.
func renew(ctx context.Context, subscribe func()) {
	t := time.NewTicker(3 * time.Second)
	defer t.Stop()
	for {
		subscribe()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// watchLoop shows the OSC packets that arrive on got until ctx ends, at
// most ten times a second, and passes a token the daemon sends
// (<prefix>/validate) to validate. False if neither the daemon's frames
// nor its refusal came within timeout (unless it is 0) or before ctx
// ended.
func watchLoop(ctx context.Context, got <-chan datagram, timeout time.Duration, prefix string, out io.Writer, validate func(token string)) (answered bool) {
	hands := map[string]*watchState{}
	var lastPrint time.Time
	var refused string // the last refusal shown
	var noAnswer <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		noAnswer = t.C
	}
	for {
		var b datagram
		select {
		case <-ctx.Done():
			printWatch(out, hands)
			return answered
		case <-noAnswer:
			return false
		case b = <-got:
		}
		if !b.fromDaemon { // anyone may send to the socket
			continue
		}
		p, err := goosc.ParsePacket(string(b.b))
		if err != nil {
			continue
		}
		bundle, ok := p.(*goosc.Bundle)
		if !ok {
			m, _ := p.(*goosc.Message)
			if m == nil || len(m.Arguments) == 0 {
				continue
			}
			arg, _ := m.Arguments[0].(string)
			// Only what a daemon sends is an answer: a request (watch's
			// own, looped back) is not.
			switch {
			case m.Address == prefix+"/validate" && arg != "":
				validate(arg) // frames follow once it has the token
			case m.Address == prefix+"/refused":
				noAnswer, answered = nil, true // watch shows why, until it ends
				if arg != refused {
					refused = arg
					// Shown as every string from the network is: printable,
					// and clipped.
					fmt.Fprintf(out, "the daemon refused the subscription: %v\n", configs.Clip(printable.String(refused), 200))
				}
			}
			continue
		}
		noAnswer, answered = nil, true
		for _, m := range bundle.Messages {
			watchMessage(hands, prefix, m)
		}
		if time.Since(lastPrint) >= 100*time.Millisecond {
			printWatch(out, hands)
			lastPrint = time.Now()
		}
	}
}

// maxWatchedHands bounds the hands watch keeps: a daemon runs a few.
const maxWatchedHands = 64

func watchMessage(hands map[string]*watchState, prefix string, m *goosc.Message) {
	rest, ok := strings.CutPrefix(m.Address, prefix+"/")
	if !ok {
		return
	}
	hand, kind, ok := strings.Cut(rest, "/")
	if !ok {
		return
	}
	hand = printable.String(hand) // shown as its string arguments are
	h := hands[hand]
	if h == nil {
		if len(hands) >= maxWatchedHands {
			return
		}
		h = &watchState{since: time.Now()}
		hands[hand] = h
	}
	str := func(i int) string {
		if i < len(m.Arguments) {
			if s, ok := m.Arguments[i].(string); ok {
				return configs.Clip(printable.String(s), maxWatchedText)
			}
		}
		return "?"
	}
	num := func(i int) float32 {
		if i < len(m.Arguments) {
			if f, ok := m.Arguments[i].(float32); ok {
				return f
			}
		}
		return 0
	}
	switch kind {
	case "frame":
		h.frames++
		if el := time.Since(h.since); el >= time.Second {
			h.fps, h.frames, h.since = float64(h.frames)/el.Seconds(), 0, time.Now()
		}
		h.near = 0
		for _, l := range []*watchList{&h.contacts, &h.touches, &h.hands, &h.lod} {
			l.reset()
		}
	case "hand":
		h.hands.add(fmt.Sprintf("%s on %s %s %.1f mm", str(1), str(0), str(2), num(3)*1e3))
	case "lod":
		level := int32(-1)
		if len(m.Arguments) > 1 {
			level, _ = m.Arguments[1].(int32)
		}
		h.lod.add(fmt.Sprintf("%s at level %d", str(0), level))
	case "contact":
		h.contacts.add(fmt.Sprintf("%s in %s %.1f mm", str(0), str(1), num(2)*1e3))
	case "near":
		h.near++
	case "touch":
		edge := "ends"
		if len(m.Arguments) > 2 && m.Arguments[2] == int32(1) {
			edge = "begins"
		}
		h.touches.add(fmt.Sprintf("%s/%s %s", str(0), str(1), edge))
	case "status":
		h.status = str(0)
	}
}

func printWatch(out io.Writer, hands map[string]*watchState) {
	names := make([]string, 0, len(hands))
	for n := range hands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		h := hands[n]
		line := fmt.Sprintf("%s: %s %.0f fps, %d contacts, %d near", n, h.status, h.fps, h.contacts.n, h.near)
		if h.contacts.n > 0 {
			line += ": " + h.contacts.String()
		}
		if h.touches.n > 0 {
			line += " | touch " + h.touches.String()
		}
		if h.hands.n > 0 {
			line += " | hands: " + h.hands.String()
		}
		if h.lod.n > 0 {
			line += " | may touch " + h.lod.String()
		}
		fmt.Fprintln(out, line)
	}
}
