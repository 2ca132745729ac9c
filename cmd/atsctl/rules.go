package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/tablegames/ats/internal/rules"
)

// atsctl rules prints the rule-to-test matrix (internal/rules): every rule of SPEC.md and the
// seeds, the tests that prove it, the rules not yet proven, and those that are the operator's
// procedure. -format markdown is the form a lab submission takes; csv is for a spreadsheet.
// -open lists only the software rules no test proves yet: the work left.
func init() {
	register("rules", command{
		summary: "print the rule-to-test matrix (-format text|markdown|csv, -open)",
		run:     runRules,
	})
}

func runRules(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rules", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "text, markdown or csv")
	open := fs.Bool("open", false, "only the software rules not yet proven")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "atsctl rules: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	write := map[string]func(io.Writer, []rules.Rule) error{
		"text": rules.WriteText, "markdown": rules.WriteMarkdown, "md": rules.WriteMarkdown, "csv": rules.WriteCSV,
	}[*format]
	if write == nil {
		fmt.Fprintf(stderr, "atsctl rules: format %q is not text, markdown or csv\n", *format)
		return 2
	}
	rs, err := rules.Matrix()
	if err != nil {
		fmt.Fprintln(stderr, "atsctl rules:", err)
		return 1
	}
	if *open {
		var left []rules.Rule
		for _, r := range rs {
			if r.Status() == rules.NotYetProven {
				left = append(left, r)
			}
		}
		rs = left
	}
	if err := write(stdout, rs); err != nil {
		fmt.Fprintln(stderr, "atsctl rules:", err)
		return 1
	}
	return 0
}
