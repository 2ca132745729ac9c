package rules

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"
)

// proof is what a rule's last column says: its tests, "not yet proven", or the procedure's reason.
func proof(r Rule, sep string) string {
	switch {
	case r.Kind == Procedure:
		return r.Reason
	case len(r.Tests) == 0:
		return NotYetProven
	}
	return strings.Join(r.Tests, sep)
}

func sources(r Rule) string {
	if len(r.Sources) == 0 {
		return "-"
	}
	return strings.Join(r.Sources, "; ")
}

// WriteText writes the matrix for a terminal: a block per rule, then the counts.
func WriteText(w io.Writer, rs []Rule) error {
	for _, r := range rs {
		if _, err := fmt.Fprintf(w, "%s  [%s]  %s\n  cites: %s\n", r.ID, r.Status(), r.Text, sources(r)); err != nil {
			return err
		}
		switch {
		case r.Kind == Procedure:
			fmt.Fprintf(w, "  why procedure: %s\n", r.Reason)
		case len(r.Tests) > 0:
			for _, t := range r.Tests {
				fmt.Fprintf(w, "  test: %s\n", t)
			}
		}
	}
	s := Count(rs)
	_, err := fmt.Fprintf(w, "\n%d rules: %d proven, %d not yet proven, %d procedure\n", len(rs), s.Proven, s.NotYet, s.Procedure)
	return err
}

// mdCell escapes what would break a Markdown table cell.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// WriteMarkdown writes the matrix as a Markdown table, for a submission's document.
func WriteMarkdown(w io.Writer, rs []Rule) error {
	s := Count(rs)
	fmt.Fprintf(w, "# Rule-to-test matrix\n\n%d rules: %d proven, %d not yet proven, %d procedure.\n\n", len(rs), s.Proven, s.NotYet, s.Procedure)
	fmt.Fprintln(w, "| rule | cites | rule text | status | tests, or why procedure |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, r := range rs {
		p := proof(r, "<br>")
		if r.Kind == Software && len(r.Tests) > 0 {
			ts := make([]string, len(r.Tests))
			for i, t := range r.Tests {
				ts[i] = "`" + t + "`"
			}
			p = strings.Join(ts, "<br>")
		}
		if _, err := fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", mdCell(r.ID), mdCell(sources(r)), mdCell(r.Text), r.Status(), mdCell(p)); err != nil {
			return err
		}
	}
	return nil
}

// WriteCSV writes the matrix as CSV, one rule a row, tests separated by ";".
func WriteCSV(w io.Writer, rs []Rule) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"rule", "cites", "text", "kind", "status", "tests", "reason"})
	for _, r := range rs {
		cw.Write([]string{r.ID, sources(r), r.Text, string(r.Kind), r.Status(), strings.Join(r.Tests, ";"), r.Reason})
	}
	cw.Flush()
	return cw.Error()
}
