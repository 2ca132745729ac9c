package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strings"
	"testing"

	"github.com/tablegames/ats/internal/rules"
)

// TestRulesCommand: atsctl rules prints the whole matrix in each format, -open only the rules
// not yet proven, and refuses a format it does not know.
func TestRulesCommand(t *testing.T) {
	rs, err := rules.Matrix()
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"rules"}, nil, &out, &errb); code != 0 {
		t.Fatalf("text: exit %d: %s", code, errb.String())
	}
	for _, r := range rs {
		if !strings.Contains(out.String(), r.ID+"  ["+r.Status()+"]") {
			t.Errorf("text lacks %s", r.ID)
		}
	}
	out.Reset()
	if code := run([]string{"rules", "-format", "csv"}, nil, &out, &errb); code != 0 {
		t.Fatalf("csv: exit %d", code)
	}
	recs, err := csv.NewReader(&out).ReadAll()
	if err != nil || len(recs) != len(rs)+1 {
		t.Fatalf("csv: %d records for %d rules, %v", len(recs), len(rs), err)
	}
	out.Reset()
	if code := run([]string{"rules", "-format", "markdown", "-open"}, nil, &out, &errb); code != 0 {
		t.Fatalf("markdown: exit %d", code)
	}
	open := rules.Count(rs).NotYet
	if n := strings.Count(out.String(), "| not yet proven |"); n != open {
		t.Errorf("-open listed %d rules, the matrix has %d not yet proven", n, open)
	}
	if strings.Contains(out.String(), "| proven |") || strings.Contains(out.String(), "| procedure |") {
		t.Errorf("-open listed a proven or procedure rule:\n%s", out.String())
	}
	errb.Reset()
	if code := run([]string{"rules", "-format", "pdf"}, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), `"pdf"`) {
		t.Errorf("unknown format: exit %d, %q", code, errb.String())
	}
}

// TestRulesMutateSelection: -only picks exactly the mutations named (one, not all from then on),
// -fast only the fast set, and a number not in the list is an error rather than an empty run.
func TestRulesMutateSelection(t *testing.T) {
	ms := []rules.Mutation{{N: 1, Fast: true}, {N: 2}, {N: 3, Fast: true}}
	nums := func(ms []rules.Mutation) (s string) {
		for _, m := range ms {
			s += fmt.Sprint(m.N)
		}
		return s
	}
	for _, tc := range []struct {
		fast bool
		only string
		want string
	}{{false, "", "123"}, {true, "", "13"}, {false, "1", "1"}, {false, "3, 2", "23"}, {true, "3", "3"}} {
		got, err := selectMutations(ms, tc.fast, tc.only)
		if err != nil || nums(got) != tc.want {
			t.Errorf("fast %v only %q: %s, %v; want %s", tc.fast, tc.only, nums(got), err, tc.want)
		}
	}
	for _, only := range []string{"4", "x", "2"} {
		if _, err := selectMutations(ms, only == "2", only); err == nil {
			t.Errorf("-only %q accepted", only)
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"rules", "-fast"}, nil, &out, &errb); code != 2 {
		t.Errorf("-fast without -mutate: exit %d", code)
	}
}
