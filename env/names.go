package env

import (
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/gloved/gloved/internal/printable"
)

// MaxObjectName bounds an object's name in bytes, as osc.MaxAddressPart
// bounds an address part: every contact and near message carries the
// name, and a 70,000-byte name made each of them too long to send.
const MaxObjectName = 256

// cleanNames makes every object name printable (printable.String: an
// escape or control character in a name would reach the terminal of
// gloved contacts or watch as a command) and cuts it to MaxObjectName
// bytes at a character's start. UTF-8 names (a glTF's) are kept. It
// returns a warning naming how many names changed, or "" if none did.
func (m *Mesh) cleanNames() string {
	changed, first := 0, -1
	for i, name := range m.Objects {
		c := printable.String(name)
		c = cut(c, MaxObjectName)
		if c != name {
			m.Objects[i] = c
			changed++
			if first < 0 {
				first = i
			}
		}
	}
	if changed == 0 {
		return ""
	}
	return fmt.Sprintf("%d object name(s) held control characters or ran past %d bytes: each such character is shown as '?' and names are cut to %d bytes (the first, object %d, is now %q)",
		changed, MaxObjectName, MaxObjectName, first, m.Objects[first])
}

// UniqueNames renames each object whose name an earlier object has,
// appending ".N" (the least N that makes it unique; the name cut first if
// it would pass MaxObjectName): contacts and near misses name objects,
// and a name must be one object. Given keeps the names as given, which a
// config's methods key still names (Named). It returns a warning naming how many were renamed and the
// first, or "" if none was.
func (m *Mesh) UniqueNames() string {
	taken := make(map[string]bool, len(m.Objects))
	for _, name := range m.Objects {
		taken[name] = true
	}
	seen := make(map[string]bool, len(m.Objects))
	renamed, first, was := 0, -1, ""
	for i, name := range m.Objects {
		if !seen[name] {
			seen[name] = true
			continue
		}
		numbered := func(n int) string {
			suffix := fmt.Sprintf(".%d", n)
			return cut(name, MaxObjectName-len(suffix)) + suffix
		}
		n := 1
		for taken[numbered(n)] {
			n++
		}
		if m.Given == nil {
			m.Given = slices.Clone(m.Objects)
		}
		m.Objects[i] = numbered(n)
		taken[m.Objects[i]], seen[m.Objects[i]] = true, true
		if renamed++; first < 0 {
			first, was = i, name
		}
	}
	if renamed == 0 {
		return ""
	}
	return fmt.Sprintf("%d object(s) had the name of an earlier one and were renamed NAME.N, so that each name is one object in contacts (a methods key names each object of its name as given; the first, object %d %q, is now %q)",
		renamed, first, was, m.Objects[first])
}

// cut returns s cut to at most n bytes at a character's start.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
