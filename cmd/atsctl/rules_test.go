package main

import (
	"bytes"
	"encoding/csv"
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
