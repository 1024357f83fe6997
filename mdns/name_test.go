package mdns

import (
	"testing"

	"github.com/miekg/dns"
)

// TestNames: an instance name of any bytes survives escaping into a DNS
// name and reading back, through miekg/dns's wire format too; host names
// are one DNS-safe label per instance and type; renames count from 2.
func TestNames(t *testing.T) {
	for _, inst := range []string{"gloved-lab", "gloved-lab (2)", `odd.name\with "quotes"; and @$`, "ünïcode", "tab\there"} {
		name := instanceName(inst, "_osc._udp")
		if got, rest := firstLabel(name); got != inst || rest != "_osc._udp.local." {
			t.Errorf("%q: %q read back as %q, %q", inst, name, got, rest)
		}
		rr := &dns.SRV{Hdr: dns.RR_Header{Name: name, Rrtype: dns.TypeSRV, Class: dns.ClassINET, Ttl: 1}, Target: "h.local."}
		buf := make([]byte, 512)
		n, err := dns.PackRR(rr, buf, 0, nil, false)
		if err != nil {
			t.Fatalf("%q: %v", inst, err)
		}
		back, _, err := dns.UnpackRR(buf[:n], 0)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := firstLabel(back.Header().Name); got != inst {
			t.Errorf("%q through the wire: %q", inst, got)
		}
	}
	for _, tc := range [][3]string{
		{"gloved-lab", "_oscjson._tcp", "gloved-lab-oscjson.local."},
		{"gloved-lab (2)", "_osc._udp", "gloved-lab-2-osc.local."},
		{"Gloved LAB!!", "_osc._udp", "gloved-lab-osc.local."},
		{"(((", "_osc._udp", "host-osc.local."},
	} {
		if got := HostName(tc[0], tc[1]); got != tc[2] {
			t.Errorf("HostName(%q, %q) = %q, want %q", tc[0], tc[1], got, tc[2])
		}
	}
	if renamed("gloved", 1) != "gloved" || renamed("gloved", 3) != "gloved (3)" {
		t.Error(renamed("gloved", 3))
	}
}
