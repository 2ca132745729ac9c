package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tablegames/ats/internal/rules"
	"github.com/tablegames/ats/internal/rules/mutate"
)

// atsctl rules prints the rule-to-test matrix (internal/rules): every rule of SPEC.md and the
// seeds, the tests that prove it, the rules not yet proven, and those that are the operator's
// procedure. -format markdown is the form a lab submission takes; csv is for a spreadsheet.
// -open lists only the software rules no test proves yet: the work left.
//
// -mutate checks the matrix instead of printing it (issue 34): each mutation of
// internal/rules/mutations.tsv breaks a money rule on purpose, in a `go test -overlay` so the
// work tree is untouched, and the tests the rule's row names must catch it. It prints a table
// (rule, mutation, the test that caught it) and exits 1 if a rule survived a mutation or a
// mutation could not be judged (stale, does not build). -fast runs only the quick subset;
// -only 3,7 the mutations named. It runs from inside the module's work tree. -baseline=false
// skips the first, unmutated run of the named tests, for packaging/test.sh, whose go test step
// has just passed them all.
func init() {
	register("rules", command{
		summary: "print the rule-to-test matrix (-format text|markdown|csv, -open), or check it by mutation (-mutate [-fast] [-only N,M])",
		run:     runRules,
	})
}

func runRules(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rules", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "text, markdown or csv")
	open := fs.Bool("open", false, "only the software rules not yet proven")
	mut := fs.Bool("mutate", false, "break each money rule of mutations.tsv and check a named test fails")
	fast := fs.Bool("fast", false, "with -mutate: only the mutations marked fast")
	only := fs.String("only", "", "with -mutate: only these mutations, by number (3,7)")
	timeout := fs.Duration("timeout", 10*time.Minute, "with -mutate: for each go test")
	baseline := fs.Bool("baseline", true, "with -mutate: first run the named tests unmutated (false where they have just passed)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "atsctl rules: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *mut {
		return runMutate(*fast, *only, *baseline, *timeout, stdout, stderr)
	}
	if *fast || *only != "" {
		fmt.Fprintln(stderr, "atsctl rules: -fast and -only go with -mutate")
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

// selectMutations picks the mutations -fast and -only ask for; an -only number not in the list is
// an error, not an empty run.
func selectMutations(ms []rules.Mutation, fast bool, only string) ([]rules.Mutation, error) {
	want := map[int]bool{}
	if only != "" {
		for _, f := range strings.Split(only, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				return nil, fmt.Errorf("-only %q: %q is not a mutation number", only, f)
			}
			want[n] = true
		}
	}
	var out []rules.Mutation
	found := map[int]bool{}
	for _, m := range ms {
		if (fast && !m.Fast) || (len(want) > 0 && !want[m.N]) {
			continue
		}
		found[m.N] = true
		out = append(out, m)
	}
	for n := range want {
		if !found[n] {
			return nil, fmt.Errorf("-only: no mutation %d (or it is not in the fast set)", n)
		}
	}
	return out, nil
}

// moduleRoot is the directory above the working directory holding this module's go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.HasPrefix(string(b), "module github.com/tablegames/ats\n") {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("not inside the github.com/tablegames/ats work tree: -mutate runs its tests")
		}
		dir = up
	}
}

func runMutate(fast bool, only string, baseline bool, timeout time.Duration, stdout, stderr io.Writer) int {
	ms, err := rules.Mutations()
	if err == nil {
		ms, err = selectMutations(ms, fast, only)
	}
	if err != nil {
		fmt.Fprintln(stderr, "atsctl rules:", err)
		return 2
	}
	rs, err := rules.Matrix()
	if err != nil {
		fmt.Fprintln(stderr, "atsctl rules:", err)
		return 1
	}
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintln(stderr, "atsctl rules:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	opt := mutate.Options{Root: root, Timeout: timeout, Log: stderr}
	start := time.Now()
	if baseline {
		if err := mutate.Baseline(ctx, opt, ms, rs); err != nil {
			fmt.Fprintln(stderr, "atsctl rules:", err)
			return 1
		}
	}
	results, err := mutate.Run(ctx, opt, ms, rs)
	bad := mutate.WriteTable(stdout, results)
	fmt.Fprintf(stdout, "took %s\n", time.Since(start).Round(time.Second))
	if err != nil {
		fmt.Fprintln(stderr, "atsctl rules:", err)
		return 1
	}
	if bad > 0 {
		return 1
	}
	return 0
}
