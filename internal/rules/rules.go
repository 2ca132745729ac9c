// Package rules is the rule-to-test matrix a testing lab asks for in a submission (issue 17):
// every rule of SPEC.md and of the seed rules it distils, each either software — with the tests
// that prove it, or "not yet proven" where none does yet, listed rather than hidden — or the
// operator's procedure, with the reason software has no part in it.
//
// The matrix is data (rules.tsv, embedded) so that adding a rule or a test is a one-line change
// that merges as text; its test (matrix_test.go) keeps it honest: every test it names must exist
// in the repository, and every rule SPEC.md cites must be in it. `atsctl rules` prints it.
//
// A named test must also be able to fail: mutations.tsv (mutations.go) breaks each money rule on
// purpose, and internal/rules/mutate checks that a test its row names then fails.
package rules

import (
	_ "embed"
	"fmt"
	"strings"
)

//go:embed rules.tsv
var matrixTSV string

// Kind says who carries a rule out.
type Kind string

const (
	// Software rules are the table server's or the terminal's to follow, and a test proves each.
	Software Kind = "software"
	// Procedure rules are done by people (the dealer, the pit boss, the operator); software has
	// no part, or only keeps the records they read.
	Procedure Kind = "procedure"
)

// NotYetProven stands in a software rule's tests when no test proves it yet.
const NotYetProven = "not yet proven"

// Rule is one row of the matrix.
type Rule struct {
	ID      string   // "SPEC §3.2" or a seed rule, "001 §4.3.1"
	Sources []string // the seed rules it cites; none for "-"
	Text    string   // the rule, in a line
	Kind    Kind
	Tests   []string // "package/path.TestName", for software rules; empty when not yet proven
	Reason  string   // why a procedure rule is not software's
}

// Proven reports whether a software rule has at least one test.
func (r Rule) Proven() bool { return r.Kind == Software && len(r.Tests) > 0 }

// Status is the rule's state in a word or three: proven, not yet proven, procedure.
func (r Rule) Status() string {
	switch {
	case r.Kind == Procedure:
		return "procedure"
	case r.Proven():
		return "proven"
	}
	return NotYetProven
}

// Matrix returns the embedded matrix, checked.
func Matrix() ([]Rule, error) { return Parse(matrixTSV) }

// Parse reads a matrix: one rule a line, five tab-separated fields, lines starting with # and
// blank lines ignored. An id twice, an unknown kind, a test not written package.TestName, or a
// procedure without its reason is an error naming the line.
func Parse(s string) ([]Rule, error) {
	var out []Rule
	seen := map[string]int{}
	lines, err := tsvLines(s, 5, "id, source, rule, kind, tests or reason")
	if err != nil {
		return nil, err
	}
	for _, l := range lines {
		n, f := l.n, l.f
		for j := range f {
			f[j] = strings.TrimSpace(f[j])
			if f[j] == "" {
				return nil, fmt.Errorf("line %d: field %d is empty", n, j+1)
			}
		}
		r := Rule{ID: f[0], Text: f[2], Kind: Kind(f[3])}
		if prev, dup := seen[r.ID]; dup {
			return nil, fmt.Errorf("line %d: rule %q already on line %d", n, r.ID, prev)
		}
		seen[r.ID] = n
		if f[1] != "-" {
			for _, src := range strings.Split(f[1], ";") {
				if src = strings.TrimSpace(src); src != "" {
					r.Sources = append(r.Sources, src)
				}
			}
		}
		switch r.Kind {
		case Software:
			if f[4] != NotYetProven {
				for _, tn := range strings.Split(f[4], ";") {
					tn = strings.TrimSpace(tn)
					if _, _, err := SplitTest(tn); err != nil {
						return nil, fmt.Errorf("line %d: %v", n, err)
					}
					r.Tests = append(r.Tests, tn)
				}
			}
		case Procedure:
			r.Reason = f[4]
		default:
			return nil, fmt.Errorf("line %d: kind %q is neither %s nor %s", n, f[3], Software, Procedure)
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the matrix has no rules")
	}
	return out, nil
}

// tsvLine is a line of a tab-separated list: its number in the file and its fields.
type tsvLine struct {
	n int
	f []string
}

// tsvLines splits a tab-separated list (the matrix, the mutations) into its lines of want
// fields, leaving out blank lines and # comments; a line with another count is an error naming
// the line and the fields it should have.
func tsvLines(s string, want int, fields string) ([]tsvLine, error) {
	var out []tsvLine
	for i, line := range strings.Split(s, "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != want {
			return nil, fmt.Errorf("line %d: %d fields, want %d (%s)", i+1, len(f), want, fields)
		}
		out = append(out, tsvLine{i + 1, f})
	}
	return out, nil
}

// SplitTest splits "app/station.TestName" into the package path in the module and the
// function name, which must be a Test or Fuzz function.
func SplitTest(s string) (pkg, fn string, err error) {
	i := strings.LastIndexByte(s, '.')
	if i <= 0 || i == len(s)-1 {
		return "", "", fmt.Errorf("test %q is not package.TestName", s)
	}
	pkg, fn = s[:i], s[i+1:]
	if !strings.HasPrefix(fn, "Test") && !strings.HasPrefix(fn, "Fuzz") {
		return "", "", fmt.Errorf("test %q: %q is not a Test or Fuzz function", s, fn)
	}
	if strings.ContainsAny(pkg, " \\") || strings.HasPrefix(pkg, "/") || strings.Contains(pkg, "..") {
		return "", "", fmt.Errorf("test %q: %q is not a package path in the module", s, pkg)
	}
	return pkg, fn, nil
}

// Summary counts the rules by status.
type Summary struct{ Proven, NotYet, Procedure int }

// Count sums a matrix up.
func Count(rs []Rule) Summary {
	var s Summary
	for _, r := range rs {
		switch r.Status() {
		case "proven":
			s.Proven++
		case "procedure":
			s.Procedure++
		default:
			s.NotYet++
		}
	}
	return s
}
