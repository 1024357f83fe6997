package cyberglove

// Stamp is a CyberGlove III record's time stamp, HH:MM:SS:ff:nS: the unit's
// time of day, the frame within the second (ff, counted at the stream's
// rate: 0..89 at 90 Hz) and the unit digit n (the 1 of the commands 1eu
// and 1S). Its fields are in range: Hour < 24, Minute and Second < 60,
// Frame < 100, Unit an ASCII digit.
type Stamp struct {
	Hour, Minute, Second, Frame uint8
	Unit                        byte
}

// Count returns the stamp as one number, the second of the day times 100
// plus the frame: a III sample's GloveTime. The frame stays as sent rather
// than turned into a time: its rate is the unit's (90 Hz at frame
// multiplier 3, says the reference), and the record does not carry it.
func (st Stamp) Count() uint32 {
	return (uint32(st.Hour)*3600+uint32(st.Minute)*60+uint32(st.Second))*100 + uint32(st.Frame)
}

// Append appends the stamp as the unit sends it.
func (st Stamp) Append(b []byte) []byte {
	return append(b,
		'0'+st.Hour/10, '0'+st.Hour%10, ':',
		'0'+st.Minute/10, '0'+st.Minute%10, ':',
		'0'+st.Second/10, '0'+st.Second%10, ':',
		'0'+st.Frame/10, '0'+st.Frame%10, ':',
		st.Unit, 'S')
}

// stampMax is the highest byte each stamp position may hold: a digit bound
// ('0' and up), or exactly ':' or 'S'.
var stampMax = [StampLen]byte{'2', '9', ':', '5', '9', ':', '5', '9', ':', '9', '9', ':', '9', 'S'}

// stampFits reports whether the bytes of b, up to a stamp's length, can be
// the beginning of a stamp: digits in range where digits go (hours up to
// 23), ':' and 'S' where they go.
func stampFits(b []byte) bool {
	for j := range min(len(b), StampLen) {
		c, hi := b[j], stampMax[j]
		if hi == ':' || hi == 'S' {
			if c != hi {
				return false
			}
		} else if c < '0' || c > hi {
			return false
		}
	}
	return len(b) < 2 || b[0] < '2' || b[1] <= '3'
}

// decodeStamp reads the stamp at the start of b, which stampFits accepted.
func decodeStamp(b []byte) Stamp {
	two := func(i int) uint8 { return 10*(b[i]-'0') + b[i+1] - '0' }
	return Stamp{Hour: two(0), Minute: two(3), Second: two(6), Frame: two(9), Unit: b[12]}
}
