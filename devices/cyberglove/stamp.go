package cyberglove

// Stamp is a CyberGlove III record's time stamp, HH:MM:SS:ff:nS: hours,
// minutes and seconds of the unit's clock, the frame within the second
// (ff, counted at the stream's rate: 0..89 at 90 Hz) and the unit digit n
// (the 1 of the commands 1eu and 1S). The reference gives only the
// stamp's shape, not what its clock counts (the time of day, or the time
// since the unit was switched on, which passes 23:59:59 after a day), so
// each field is any two digits and Unit an ASCII digit.
type Stamp struct {
	Hour, Minute, Second, Frame uint8
	Unit                        byte
}

// Count returns the stamp as one number, its seconds (HH·3600 + MM·60 +
// SS) times 100 plus the frame: a III sample's GloveTime. The frame stays as sent rather
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

// stampShape is a stamp's shape: a digit where '9' stands, else exactly
// the byte.
var stampShape = [StampLen]byte{'9', '9', ':', '9', '9', ':', '9', '9', ':', '9', '9', ':', '9', 'S'}

// stampFits reports whether the bytes of b, up to a stamp's length, can be
// the beginning of a stamp: digits where digits go, ':' and 'S' where they
// go. No stamp fits inside a record's values: a stamp is 14 bytes of 0x30
// and up, and every other byte of the values is a high byte, at most 0x0F.
func stampFits(b []byte) bool {
	for j := range min(len(b), StampLen) {
		c, want := b[j], stampShape[j]
		if want == '9' {
			if c < '0' || c > '9' {
				return false
			}
		} else if c != want {
			return false
		}
	}
	return true
}

// decodeStamp reads the stamp at the start of b, which stampFits accepted.
func decodeStamp(b []byte) Stamp {
	two := func(i int) uint8 { return 10*(b[i]-'0') + b[i+1] - '0' }
	return Stamp{Hour: two(0), Minute: two(3), Second: two(6), Frame: two(9), Unit: b[12]}
}
