package rules

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
)

// The mutation list (issue 34): for each money rule of the matrix, source changes that break the
// rule on purpose. A row of the matrix claims its tests prove the rule; a mutation that leaves
// every one of them passing shows the claim is false. internal/rules/mutate runs them
// (`atsctl rules -mutate`); TestMutationsApply checks, on every `go test ./internal/rules`, that
// each one still applies, so a mutation a later change has made stale fails at once rather than
// being skipped.

//go:embed mutations.tsv
var mutationsTSV string

// Mutation is one deliberate break of a rule: Original, found exactly once in File, replaced by
// Replacement.
type Mutation struct {
	N           int      // its number, stable: reports and -only name it
	Rules       []string // the matrix rows it breaks; each row's tests must catch it
	Fast        bool     // in the quick subset packaging/test.sh runs
	File        string   // slash path from the module root
	Original    string   // exact text, escapes decoded
	Replacement string
	Why         string // what the break does, in a line
}

// Mutations returns the embedded mutation list, parsed and checked against the matrix.
func Mutations() ([]Mutation, error) {
	rs, err := Matrix()
	if err != nil {
		return nil, err
	}
	return ParseMutations(mutationsTSV, rs)
}

// unescape decodes the list's escapes, \t, \n and \\, so a mutation can span lines and hold the
// tabs Go indents with while the list stays one mutation a line. Any other backslash is an error
// rather than a guess.
func unescape(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 == len(s) {
			return "", fmt.Errorf("a lone backslash ends %q", s)
		}
		i++
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case '\\':
			b.WriteByte('\\')
		default:
			return "", fmt.Errorf(`escape \%c in %q: only \t, \n and \\ are known`, s[i], s)
		}
	}
	return b.String(), nil
}

// ParseMutations reads a mutation list: one mutation a line, seven tab-separated fields
// (number, rules, set, file, original, replacement, why), # comments and blank lines ignored.
// Every rule named must be a software row of rs with tests: a mutation of a rule no test claims
// proves nothing. A number twice, an empty original, or a replacement equal to it is an error
// naming the line.
func ParseMutations(s string, rs []Rule) ([]Mutation, error) {
	rows := map[string]Rule{}
	for _, r := range rs {
		rows[r.ID] = r
	}
	var out []Mutation
	seen := map[int]int{}
	lines, err := tsvLines(s, 7, "number, rules, set, file, original, replacement, why")
	if err != nil {
		return nil, fmt.Errorf("mutations %w", err)
	}
	for _, l := range lines {
		n, f := l.n, l.f
		num, err := strconv.Atoi(f[0])
		if err != nil || num <= 0 {
			return nil, fmt.Errorf("mutations line %d: number %q is not a positive integer", n, f[0])
		}
		if prev, dup := seen[num]; dup {
			return nil, fmt.Errorf("mutations line %d: mutation %d already on line %d", n, num, prev)
		}
		seen[num] = n
		m := Mutation{N: num, File: strings.TrimSpace(f[3]), Why: strings.TrimSpace(f[6])}
		for _, id := range strings.Split(f[1], ";") {
			id = strings.TrimSpace(id)
			r, ok := rows[id]
			switch {
			case !ok:
				return nil, fmt.Errorf("mutations line %d: rule %q is not a row of the matrix", n, id)
			case !r.Proven():
				return nil, fmt.Errorf("mutations line %d: rule %q names no tests to catch the mutation", n, id)
			}
			m.Rules = append(m.Rules, id)
		}
		switch f[2] {
		case "fast":
			m.Fast = true
		case "full":
		default:
			return nil, fmt.Errorf("mutations line %d: set %q is neither fast nor full", n, f[2])
		}
		if m.File == "" || strings.HasPrefix(m.File, "/") || strings.Contains(m.File, "..") || !strings.HasSuffix(m.File, ".go") ||
			strings.HasSuffix(m.File, "_test.go") {
			return nil, fmt.Errorf("mutations line %d: file %q is not a non-test Go file in the module", n, m.File)
		}
		if m.Original, err = unescape(f[4]); err != nil {
			return nil, fmt.Errorf("mutations line %d: original: %v", n, err)
		}
		if m.Replacement, err = unescape(f[5]); err != nil {
			return nil, fmt.Errorf("mutations line %d: replacement: %v", n, err)
		}
		switch {
		case m.Original == "":
			return nil, fmt.Errorf("mutations line %d: the original text is empty", n)
		case m.Original == m.Replacement:
			return nil, fmt.Errorf("mutations line %d: the replacement is the original", n)
		case m.Why == "":
			return nil, fmt.Errorf("mutations line %d: say why (what the mutation breaks)", n)
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the mutation list has no mutations")
	}
	return out, nil
}

// Apply returns src with the mutation made, or an error when its original text is not in src
// exactly once: a stale mutation (the code it broke has changed) must be noticed, never skipped.
func (m Mutation) Apply(src string) (string, error) {
	switch c := strings.Count(src, m.Original); c {
	case 1:
		return strings.Replace(src, m.Original, m.Replacement, 1), nil
	case 0:
		return "", fmt.Errorf("mutation %d: original text not found in %s", m.N, m.File)
	default:
		return "", fmt.Errorf("mutation %d: original text found %d times in %s; make it unique", m.N, c, m.File)
	}
}
