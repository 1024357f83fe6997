package mdns

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/miekg/dns"
)

// TTL is the time to live of every record gloved advertises: RFC 6762
// section 10's 120 s for host records, here for all, so that a service
// that vanished without its goodbye (a crash, a pulled cable) leaves
// other browsers within two minutes rather than 75.
const TTL = 120

// cacheFlush is the class bit that marks a record as the one of its name
// and type (RFC 6762 section 10.2).
const cacheFlush = 1 << 15

// Service is one service advertised: its type ("_oscjson._tcp"), port and
// TXT strings, and the address it listens on, which decides the
// interfaces it is advertised on and the address it is advertised at
// (Interface.AddrFor).
type Service struct {
	Type   string
	Port   uint16
	Listen netip.Addr
	Text   []string
	// On, if set, names the only interfaces it may be advertised on.
	On []string
}

// check reports a service that cannot be advertised.
func (s Service) check() error {
	parts := strings.Split(strings.TrimSuffix(s.Type, "."), ".")
	if len(parts) != 2 || !strings.HasPrefix(parts[0], "_") || len(parts[0]) > 16 || parts[1] != "_tcp" && parts[1] != "_udp" {
		return fmt.Errorf("mdns: service type %q: want _name._tcp or _name._udp", s.Type)
	}
	if s.Port == 0 {
		return fmt.Errorf("mdns: service %s: no port", s.Type)
	}
	return nil
}

// records are a service instance's records on one interface.
type records struct {
	ptr, srv, txt, a dns.RR
	enum             dns.RR // the service enumeration PTR (RFC 6763 section 9)
}

// recordsOf returns instance's records of s at addr, with ttl.
func recordsOf(instance string, s Service, addr netip.Addr, ttl uint32) records {
	inst, host, typ := instanceName(instance, s.Type), HostName(instance, s.Type), serviceName(s.Type)
	hdr := func(name string, t uint16, unique bool) dns.RR_Header {
		class := uint16(dns.ClassINET)
		if unique {
			class |= cacheFlush
		}
		return dns.RR_Header{Name: name, Rrtype: t, Class: class, Ttl: ttl}
	}
	text := s.Text
	if len(text) == 0 {
		text = []string{""} // RFC 6763 section 6.1: a TXT record holds at least one string
	}
	return records{
		ptr:  &dns.PTR{Hdr: hdr(typ, dns.TypePTR, false), Ptr: inst},
		srv:  &dns.SRV{Hdr: hdr(inst, dns.TypeSRV, true), Port: s.Port, Target: host},
		txt:  &dns.TXT{Hdr: hdr(inst, dns.TypeTXT, true), Txt: text},
		a:    &dns.A{Hdr: hdr(host, dns.TypeA, true), A: addr.AsSlice()},
		enum: &dns.PTR{Hdr: hdr(services, dns.TypePTR, false), Ptr: typ},
	}
}

// unique are the records only this instance may hold: they are probed
// and defended.
func (r records) unique() []dns.RR { return []dns.RR{r.srv, r.txt, r.a} }
