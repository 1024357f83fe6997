package mdns

import (
	"encoding/binary"
	"errors"

	"github.com/miekg/dns"
)

// errShort is a message cut off inside its header, a question or a
// record's fixed fields.
var errShort = errors.New("mdns: message cut short")

// unpack decodes a message. miekg/dns rejects a whole message for one
// record it cannot read (python-zeroconf 0.47 sends NSEC records whose
// type bitmap holds an empty block, which it refuses), so a message it
// rejects is read again record by record: what decodes is kept, what does
// not is skipped by its length and counted in skipped.
func unpack(b []byte) (m *dns.Msg, skipped int, err error) {
	m = new(dns.Msg)
	if err := m.Unpack(b); err == nil {
		return m, 0, nil
	}
	m = new(dns.Msg)
	if len(b) < 12 {
		return nil, 0, errShort
	}
	flags := binary.BigEndian.Uint16(b[2:])
	m.Id = binary.BigEndian.Uint16(b)
	m.Response, m.Opcode, m.Authoritative = flags&(1<<15) != 0, int(flags>>11&0xf), flags&(1<<10) != 0
	m.Truncated, m.Rcode = flags&(1<<9) != 0, int(flags&0xf)
	var counts [4]int
	for i := range counts {
		counts[i] = int(binary.BigEndian.Uint16(b[4+2*i:]))
	}
	off := 12
	for range counts[0] {
		name, next, err := dns.UnpackDomainName(b, off)
		if err != nil || next+4 > len(b) {
			return nil, 0, errShort
		}
		m.Question = append(m.Question, dns.Question{Name: name, Qtype: binary.BigEndian.Uint16(b[next:]), Qclass: binary.BigEndian.Uint16(b[next+2:])})
		off = next + 4
	}
	sections := []*[]dns.RR{&m.Answer, &m.Ns, &m.Extra}
	for s, sec := range sections {
		for range counts[s+1] {
			rr, next, err := dns.UnpackRR(b, off)
			if err == nil && rr != nil {
				*sec = append(*sec, rr)
				off = next
				continue
			}
			_, end, err := dns.UnpackDomainName(b, off)
			if err != nil || end+10 > len(b) {
				return nil, 0, errShort
			}
			skipped++
			off = end + 10 + int(binary.BigEndian.Uint16(b[end+8:]))
			if off > len(b) {
				return nil, 0, errShort
			}
		}
	}
	return m, skipped, nil
}
