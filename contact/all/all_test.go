package all_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gloved/gloved/contact"
	_ "github.com/gloved/gloved/contact/all"
	"github.com/gloved/gloved/internal/readmetest"
)

// TestTheDocsListEveryShippedMethod: the shipped methods are registered,
// each with its line for the docs, and the table of them in the docs is
// made from the registrations (go test -update writes it).
func TestTheDocsListEveryShippedMethod(t *testing.T) {
	if got := strings.Join(contact.Names(), " "); got != "convex solid surface" {
		t.Fatalf("methods %s, want convex solid surface", got)
	}
	var b strings.Builder
	b.WriteString("| method | what it computes | chosen automatically for |\n| --- | --- | --- |\n")
	for _, m := range contact.Methods() {
		if m.Doc == "" {
			t.Errorf("%s has no Doc", m.Name)
		}
		var kinds []string
		for _, k := range []contact.Kind{{Convex: true}, {Closed: true}, {}} {
			if m.Rank > 0 && m.Takes(k) {
				kinds = append(kinds, k.String()+" objects")
			}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", m.Name, m.Doc, strings.Join(kinds, "; "))
	}
	readmetest.Section(t, "contact-methods", b.String())
}
