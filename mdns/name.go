package mdns

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The mDNS domain and the DNS-SD service enumeration name (RFC 6763
// section 9).
const (
	domain   = "local."
	services = "_services._dns-sd._udp.local."
)

// escape writes label s in DNS presentation format, as miekg/dns reads
// names: dots, spaces, parentheses and the other specials escaped.
func escape(s string) string {
	var b strings.Builder
	for i := range len(s) {
		c := s[i]
		switch {
		case c == '.' || c == ' ' || c == '(' || c == ')' || c == ';' || c == '@' || c == '"' || c == '\\' || c == '$':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < ' ' || c > '~':
			fmt.Fprintf(&b, "\\%03d", c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// firstLabel splits a presentation-format name into its first label,
// unescaped, and the rest ("gloved\ (2)._osc._udp.local." gives
// "gloved (2)" and "_osc._udp.local.").
func firstLabel(name string) (string, string) {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '\\' && i+3 < len(name) && isDigit(name[i+1]) && isDigit(name[i+2]) && isDigit(name[i+3]):
			v, _ := strconv.Atoi(name[i+1 : i+4])
			b.WriteByte(byte(v))
			i += 3
		case c == '\\' && i+1 < len(name):
			b.WriteByte(name[i+1])
			i++
		case c == '.':
			return b.String(), name[i+1:]
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), ""
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// serviceName is a service type's name: "_osc._udp" gives
// "_osc._udp.local.".
func serviceName(typ string) string {
	return strings.ToLower(strings.TrimSuffix(typ, ".")) + "." + domain
}

// instanceName is a service instance's full name.
func instanceName(instance, typ string) string { return escape(instance) + "." + serviceName(typ) }

// HostName is the host name a service instance's SRV record names: one
// per instance and type ("gloved-labpc (2)" and "_oscjson._tcp" give
// "gloved-labpc-2-oscjson.local."), so that each holds exactly one
// address on an interface.
func HostName(instance, typ string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(instance) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	label := strings.TrimSuffix(b.String(), "-")
	if label == "" {
		label = "host"
	}
	kind, _, _ := strings.Cut(strings.TrimPrefix(typ, "_"), ".")
	kind = "-" + strings.ToLower(strings.TrimPrefix(kind, "_"))
	if len(label)+len(kind) > maxLabel {
		// A long name keeps its start and a hash of the whole, so that
		// renames ("... (2)", "... (3)") still have hosts of their own.
		h := fnv.New32a()
		h.Write([]byte(instance))
		hash := fmt.Sprintf("-%08x", h.Sum32())
		label = strings.TrimSuffix(label[:maxLabel-len(kind)-len(hash)], "-") + hash
	}
	return label + kind + "." + domain
}

// maxLabel is the longest DNS label, in bytes (RFC 1035 section 2.3.4).
const maxLabel = 63

// renamed is the name after n conflicts (RFC 6763 appendix D): "gloved"
// gives "gloved (2)", then "gloved (3)"; base is cut, on a rune boundary,
// where the suffix would make the name longer than a label.
func renamed(base string, n int) string {
	if n <= 1 {
		return base
	}
	suffix := fmt.Sprintf(" (%d)", n)
	return cut(base, maxLabel-len(suffix)) + suffix
}

// cut returns s cut to at most n bytes, on a rune boundary.
func cut(s string, n int) string {
	for len(s) > n {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}

// sameName compares DNS names as mDNS does: ASCII case-insensitively.
func sameName(a, b string) bool { return strings.EqualFold(a, b) }
