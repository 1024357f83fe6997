package emulator

import (
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove"
	"github.com/gloved/gloved/devices/cyberglove/layout"
)

// unitCommand answers a CyberGlove III's unit-addressed commands at the
// start of p: the unit digit, then eu (enable USB streaming: the echo and
// 0x00) or S (start the 16-bit stream: the echo, which is the spurious nS
// fragment units are seen to send before the first stamp). S before eu is
// refused ('e' '?'), so a driver that forgets 1eu gets no records. Called
// with e.mu held.
func (e *Emulator) unitCommand(p []byte) (int, []byte) {
	if len(p) < 2 {
		return 0, nil
	}
	switch p[1] {
	case 'S':
		if !e.usb {
			return 2, []byte{'e', '?', 0}
		}
		e.streaming, e.wide = true, true
		return 2, []byte{p[0], 'S'}
	case 'e':
		if len(p) < 3 {
			return 0, nil
		}
		if p[2] == 'u' {
			e.usb = true
			return 3, []byte{p[0], 'e', 'u', 0}
		}
		return 3, []byte{'e', '?', 0}
	}
	return 2, []byte{'e', '?', 0}
}

// record3 builds the next 16-bit record (or, the glove unplugged, its
// error form) with fault injection. Called with e.mu held.
func (e *Emulator) record3() []byte {
	t := e.now()
	st := e.stamp(t)
	if e.unplugged(t) {
		e.stats.ErrorTails++
		return cyberglove.AppendError3(nil, st, 'g')
	}
	var slots, v [layout.Slots]uint16
	e.opts.Source(t, &slots)
	for k, x := range slots {
		v[k] = e.widen(x)
	}
	var s devices.Sample
	layout.FromSlots(&v, e.opts.Sensors, &s)
	layout.ToSlots(&s, &v) // the DIP slots an 18-sensor glove lacks read 0 (Parser3's doc)
	rec := cyberglove.AppendRecord3(make([]byte, 0, cyberglove.Record3Len+20), st, &v)
	e.stats.Records++
	if e.opts.OnRecord != nil {
		e.opts.OnRecord(s.Raw[:s.N])
	}
	if e.opts.Garbage > 0 && e.rng.Float64() < e.opts.Garbage {
		if e.rng.IntN(4) == 0 {
			e.stats.Fragments++
			frag := []byte("e1S")[e.rng.IntN(2):]
			return append(frag, rec...)
		}
		rec = e.insertGarbage(rec, func(c byte) bool { return c == ':' })
	}
	return rec
}

// widen turns a source's 8-bit reading into the 12-bit one a III sends:
// the reading's interval of sixteen 12-bit steps, the four low bits drawn
// from the seeded generator (so every bit of the value is exercised, and
// the reading in 8-bit counts stays within half a count of the source's).
func (e *Emulator) widen(x uint16) uint16 {
	x = min(max(x, 1), 254)
	return uint16(16*int(x) - 8 + e.rng.IntN(16))
}

// stamp is the III's stamp for time t since the emulator started: t as a
// time of day, the frame within the second at the stream's period, unit 1.
func (e *Emulator) stamp(t time.Duration) cyberglove.Stamp {
	frame := (t % time.Second) / e.opts.Period3
	return cyberglove.Stamp{
		Hour:   uint8(t / time.Hour % 24),
		Minute: uint8(t / time.Minute % 60),
		Second: uint8(t / time.Second % 60),
		Frame:  uint8(frame % 100),
		Unit:   '1',
	}
}
