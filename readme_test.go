package gloved_test

import (
	"strings"
	"testing"

	"github.com/gloved/gloved/internal/readmetest"
	"github.com/gloved/gloved/osc"
)

// TestREADMESummarizesTheContract: the README's summary of the OSC
// contract, each address a hand's frames carry with when it goes, and
// each request apps send, is made from the contract in the code
// (osc.Methods), under the default prefix; docs/osc.md has the whole of
// it (go test -update rewrites both).
func TestREADMESummarizesTheContract(t *testing.T) {
	names := strings.NewReplacer("{prefix}", "/gloved", "{hand}", "<hand>", "<prefix>", "/gloved")
	var frames, requests strings.Builder
	frames.WriteString("| address | sent |\n| --- | --- |\n")
	requests.WriteString("| address | answered |\n| --- | --- |\n")
	for _, m := range osc.Methods() {
		row := "| `" + names.Replace(m.Path) + "` | " + names.Replace(m.When) + " |\n"
		switch {
		case m.ForHand() && m.Access == osc.Sent:
			frames.WriteString(row)
		case m.Access == osc.Accepted:
			requests.WriteString(row)
		}
	}
	readmetest.Section(t, "osc-summary-frames", frames.String())
	readmetest.Section(t, "osc-summary-requests", requests.String())
}
