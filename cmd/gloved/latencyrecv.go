package main

import (
	"bytes"
	encbin "encoding/binary"
	"errors"
	"fmt"
	"math"
	"net"
	"os"
	"time"

	"github.com/gloved/gloved/feedback"
	goosc "github.com/hypebeast/go-osc/osc"
	"golang.org/x/sys/unix"
)

// frameTimes is one received frame: its timetag (when the serial bytes
// completing its sample reached the driver), when the kernel put its
// datagram in the receiver's socket (Out: the daemon's send, as loopback
// delivers within it), and when this process read it (Arrival).
type frameTimes struct {
	Timetag, Out, Arrival time.Time
	// Servo is the frame's feedback forces as servo values (force ×
	// 1000), when received with them.
	Servo [5]int
}

// listenReceiver opens the bench's OSC socket on loopback with kernel
// receive timestamps, so that a frame's time out of the daemon does not
// include this process's own wake-up.
func listenReceiver() (*net.UDPConn, error) {
	rx, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, fmt.Errorf("bench latency: receiver: %w", err)
	}
	raw, err := rx.SyscallConn()
	if err == nil {
		cerr := raw.Control(func(fd uintptr) {
			err = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_TIMESTAMPNS, 1)
		})
		err = errors.Join(cerr, err)
	}
	if err != nil {
		rx.Close()
		return nil, fmt.Errorf("bench latency: receiver: kernel timestamps: %w", err)
	}
	return rx, nil
}

// receiveFrames takes n frame bundles of the right hand from rx, with
// their feedback messages' forces if feedback. It fails when the daemon
// exits or no frame comes for 5 s.
func receiveFrames(rx *net.UDPConn, n int, feedback bool, stop func() error, dm *child) ([]frameTimes, error) {
	frameAddr := []byte("/gloved/right/frame\x00")
	buf, oob := make([]byte, 65536), make([]byte, 128)
	got := make([]frameTimes, 0, n)
	last := time.Now()
	for len(got) < n {
		if err := stop(); err != nil {
			return nil, fmt.Errorf("bench latency: stopped after %d of %d frames: %w", len(got), n, err)
		}
		if err := dm.exited(); err != nil {
			return nil, err
		}
		rx.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		k, oobn, _, _, err := rx.ReadMsgUDP(buf, oob)
		now := time.Now()
		if errors.Is(err, os.ErrDeadlineExceeded) {
			if now.Sub(last) > 5*time.Second {
				return nil, fmt.Errorf("bench latency: no frame from the daemon for 5 s (%d of %d received)%s", len(got), n, dm.tail())
			}
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("bench latency: receiving: %w", err)
		}
		// Read the bundle by hand: "#bundle\0", the timetag, the first
		// element's size, then its address.
		pk := buf[:k]
		if k < 40 || !bytes.HasPrefix(pk, []byte("#bundle\x00")) || !bytes.HasPrefix(pk[20:], frameAddr) {
			continue
		}
		last = now
		tt := goosc.NewTimetagFromTimetag(encbin.BigEndian.Uint64(pk[8:16])).Time()
		f := frameTimes{Timetag: tt, Out: kernelStamp(oob[:oobn], now), Arrival: now}
		if feedback {
			f.Servo = feedbackServo(pk)
		}
		got = append(got, f)
	}
	return got, nil
}

// kernelStamp returns the receive timestamp in a datagram's control
// messages, or otherwise when it was read.
func kernelStamp(oob []byte, read time.Time) time.Time {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return read
	}
	for _, m := range msgs {
		if m.Header.Level != unix.SOL_SOCKET || m.Header.Type != unix.SCM_TIMESTAMPNS {
			continue
		}
		switch d := m.Data; len(d) { // a struct timespec of the platform's word
		case 16:
			return time.Unix(int64(encbin.NativeEndian.Uint64(d)), int64(encbin.NativeEndian.Uint64(d[8:])))
		case 8:
			return time.Unix(int64(int32(encbin.NativeEndian.Uint32(d))), int64(encbin.NativeEndian.Uint32(d[4:])))
		}
	}
	return read
}

// feedbackServo returns the servo values (force × 1000, rounded) of the
// right hand's feedback message in a frame bundle, zero without one.
func feedbackServo(pk []byte) (v [5]int) {
	p, err := goosc.ParsePacket(string(pk))
	b, ok := p.(*goosc.Bundle)
	if err != nil || !ok {
		return v
	}
	for _, m := range b.Messages {
		if m.Address != "/gloved/right/feedback" || len(m.Arguments) < 5 {
			continue
		}
		for f := range v {
			if x, ok := m.Arguments[f].(float32); ok {
				v[f] = int(math.Round(float64(x) * feedback.ServoMax))
			}
		}
	}
	return v
}
