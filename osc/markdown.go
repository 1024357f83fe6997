package osc

import (
	"fmt"
	"strings"
)

// unitSymbols are the short forms of the contract's units for tables.
var unitSymbols = map[string]string{
	unitMetre: "m", unitRadian: "rad", unitMS: "ms", unitSecond: "s",
	"distance.cm": "cm", "distance.mm": "mm", "speed.m/s": "m/s",
}

// Markdown returns a table of ms for a README: each method's address,
// its arguments (type tags, names, units), when it is sent and what it
// means. Methods that are not a hand's are shown with "{prefix}" as
// <prefix> and hands' with <hand>.
func Markdown(ms []Method) string {
	var b strings.Builder
	b.WriteString("| address | arguments | when | meaning |\n| --- | --- | --- | --- |\n")
	for i := range ms {
		m := &ms[i]
		text := strings.NewReplacer("{prefix}", "<prefix>", "{hand}", "<hand>")
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", cell(m.Address("<prefix>", "<hand>")), cell(markdownArgs(m)), cell(text.Replace(m.When)), cell(text.Replace(m.Description)))
	}
	return b.String()
}

// cell escapes s for a table's cell: a | would end it (GitHub's tables
// take \| for one, in code spans too).
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// markdownArgs describes a method's arguments: "`i` sequence, `f f f`
// point (m)", then "per link: ..." for a repeated group.
func markdownArgs(m *Method) string {
	s := describeArgs(m.Args)
	if len(m.Each) > 0 {
		per := map[Per]string{PerJoint: "per joint", PerLink: "per link"}[m.Per]
		if s != "" {
			s += "; "
		}
		s += per + ": " + describeArgs(m.Each)
	}
	if s == "" {
		return "none"
	}
	return s
}

// describeArgs joins the arguments, a vector's or quaternion's components
// ("point x", "point y", "point z") as one entry.
func describeArgs(args []Arg) string {
	var parts []string
	for i := 0; i < len(args); {
		n, name := components(args[i:])
		tags := make([]string, n)
		for k := range n {
			tags[k] = tagName(args[i+k].Type)
		}
		part := "`" + strings.Join(tags, " ") + "` " + name
		if u := unitSymbols[args[i].Unit]; u != "" {
			part += " (" + u + ")"
		} else if args[i].Unit != "" {
			part += " (" + args[i].Unit + ")"
		}
		if r := args[i].Range; r != nil && len(r.Values) > 0 {
			part += ": " + strings.Join(r.Values, ", ")
		}
		if args[i].Optional {
			part += " (optional)"
		}
		parts = append(parts, part)
		i += n
	}
	return strings.Join(parts, ", ")
}

// components reports how many of args, from the first, are the
// components of one vector (x y z) or quaternion (qx qy qz qw), and the
// name to show for them; 1 and the argument's name otherwise.
func components(args []Arg) (int, string) {
	for _, suffixes := range [][]string{{" qx", " qy", " qz", " qw"}, {" x", " y", " z"}} {
		if len(args) < len(suffixes) {
			continue
		}
		base, ok := strings.CutSuffix(args[0].Name, suffixes[0])
		for k := 1; ok && k < len(suffixes); k++ {
			ok = args[k].Name == base+suffixes[k]
		}
		if ok {
			if len(suffixes) == 4 {
				return 4, base + " (x y z w)"
			}
			return 3, base
		}
	}
	return 1, args[0].Name
}

func tagName(t byte) string {
	if t == 'T' {
		return "T/F"
	}
	return string(t)
}
