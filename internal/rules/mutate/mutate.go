// Package mutate checks that the rule-to-test matrix claims no test that cannot fail (issue 34):
// for each mutation of internal/rules/mutations.tsv it breaks a money rule on purpose and runs
// exactly the tests the matrix names for that rule, and the rule's row is false unless at least
// one of them fails.
//
// The work tree is never modified: each mutated file is written to a temporary directory and put
// in place with `go test -overlay`, so a run interrupted half way leaves nothing broken behind,
// and engineers may go on working in the tree while it runs. Before any mutation, the named
// tests run once unmutated: a test that fails already would "catch" every mutation.
package mutate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/tablegames/ats/internal/rules"
)

// Options says where and how to run.
type Options struct {
	Root    string        // the module root, holding go.mod
	Timeout time.Duration // for each `go test` (a mutation may make a test hang); 0 is 10 minutes
	Log     io.Writer     // progress, a line a package run; nil for none
}

// Result is what one mutation did.
type Result struct {
	Mutation rules.Mutation
	// Caught maps each rule the mutation breaks to the named tests of its row that failed
	// ("package.TestName"); a rule with none is a row whose tests cannot see it broken.
	Caught  map[string][]string
	Err     error // the mutation could not be judged: stale, does not build, a package failed without a test failing
	Elapsed time.Duration
}

// Survived lists the rules the mutation broke with no named test failing.
func (r Result) Survived() []string {
	if r.Err != nil {
		return nil
	}
	var out []string
	for _, id := range r.Mutation.Rules {
		if len(r.Caught[id]) == 0 {
			out = append(out, id)
		}
	}
	return out
}

// named groups the tests the matrix names for ids by package, packages in the order first named.
func named(rows map[string]rules.Rule, ids []string) (pkgs []string, tests map[string][]string, err error) {
	tests = map[string][]string{}
	seen := map[string]bool{}
	for _, id := range ids {
		r, ok := rows[id]
		if !ok {
			return nil, nil, fmt.Errorf("rule %q is not in the matrix", id)
		}
		for _, t := range r.Tests {
			pkg, fn, err := rules.SplitTest(t)
			if err != nil {
				return nil, nil, err
			}
			if seen[t] {
				continue
			}
			seen[t] = true
			if _, ok := tests[pkg]; !ok {
				pkgs = append(pkgs, pkg)
			}
			tests[pkg] = append(tests[pkg], fn)
		}
	}
	return pkgs, tests, nil
}

// event is a line of `go test -json` (cmd/test2json).
type event struct {
	Action string
	Test   string
	Output string
}

// outcome is one package's run: its named tests that failed, passed and skipped (top-level
// names: a failing subtest counts as its test failing).
type outcome struct {
	failed, passed, skipped map[string]bool
	output                  string // everything the run printed, for an error's tail
	exitErr                 error
}

// goTest runs fns of the package pkg (a path in the module) with the overlay file, if any.
func goTest(ctx context.Context, opt Options, overlay, pkg string, fns []string) outcome {
	quoted := make([]string, len(fns))
	for i, f := range fns {
		quoted[i] = regexp.QuoteMeta(f)
	}
	timeout := opt.Timeout
	if timeout == 0 {
		timeout = 10 * time.Minute
	}
	args := []string{"test", "-count=1", "-json", "-timeout", timeout.String(), "-run", "^(" + strings.Join(quoted, "|") + ")$"}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	args = append(args, "./"+pkg)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = opt.Root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	o := outcome{failed: map[string]bool{}, passed: map[string]bool{}, skipped: map[string]bool{}}
	if err != nil {
		o.exitErr = err
		return o
	}
	if err := cmd.Start(); err != nil {
		o.exitErr = err
		return o
	}
	var text strings.Builder
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			text.WriteString(sc.Text() + "\n") // not an event: a build error printed as text
			continue
		}
		text.WriteString(e.Output)
		if e.Test == "" {
			continue
		}
		top, _, _ := strings.Cut(e.Test, "/")
		switch e.Action {
		case "fail":
			o.failed[top] = true
		case "pass":
			if e.Test == top {
				o.passed[top] = true
			}
		case "skip":
			if e.Test == top {
				o.skipped[top] = true
			}
		}
	}
	o.exitErr = cmd.Wait()
	text.WriteString(stderr.String())
	o.output = text.String()
	return o
}

// tail is the last lines of out, for an error message.
func tail(out string, n int) string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func logf(opt Options, format string, args ...any) {
	if opt.Log != nil {
		fmt.Fprintf(opt.Log, format, args...)
	}
}

// Baseline runs, unmutated, every test the mutations' rules name, and fails if any of them
// fails or does not run: such a test would seem to catch every mutation. A named test that skips
// is reported in the error too, since a skipped test cannot fail.
func Baseline(ctx context.Context, opt Options, ms []rules.Mutation, rs []rules.Rule) error {
	rows := rowsOf(rs)
	var ids []string
	for _, m := range ms {
		ids = append(ids, m.Rules...)
	}
	pkgs, tests, err := named(rows, ids)
	if err != nil {
		return err
	}
	var problems []string
	for _, pkg := range pkgs {
		start := time.Now()
		o := goTest(ctx, opt, "", pkg, tests[pkg])
		logf(opt, "baseline %s: %d tests, %s\n", pkg, len(tests[pkg]), time.Since(start).Round(time.Second))
		for _, fn := range tests[pkg] {
			switch {
			case o.failed[fn]:
				problems = append(problems, fmt.Sprintf("%s.%s fails with no mutation", pkg, fn))
			case o.skipped[fn]:
				problems = append(problems, fmt.Sprintf("%s.%s skips, so it cannot fail (PostgreSQL missing? set ATS_REQUIRE_POSTGRES=1)", pkg, fn))
			case !o.passed[fn]:
				problems = append(problems, fmt.Sprintf("%s.%s did not run:\n%s", pkg, fn, tail(o.output, 15)))
			}
		}
		if o.exitErr != nil && len(o.failed) == 0 && len(problems) == 0 {
			problems = append(problems, fmt.Sprintf("%s: go test failed with no test failing: %v\n%s", pkg, o.exitErr, tail(o.output, 15)))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("the named tests, unmutated:\n  %s", strings.Join(problems, "\n  "))
	}
	return nil
}

func rowsOf(rs []rules.Rule) map[string]rules.Rule {
	rows := make(map[string]rules.Rule, len(rs))
	for _, r := range rs {
		rows[r.ID] = r
	}
	return rows
}

// Run makes each mutation in turn, in an overlay, and runs the tests the matrix names for the
// rules it breaks, package by package, until every one of those rules has a named test failing
// (the packages left cannot change the verdict). An error is returned only when the runner
// itself cannot work; a mutation that is stale, does not build, or that no named test catches
// is in its Result.
func Run(ctx context.Context, opt Options, ms []rules.Mutation, rs []rules.Rule) ([]Result, error) {
	rows := rowsOf(rs)
	dir, err := os.MkdirTemp("", "ats-mutate-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var out []Result
	for _, m := range ms {
		start := time.Now()
		res := Result{Mutation: m, Caught: map[string][]string{}}
		res.Err = one(ctx, opt, dir, rows, m, res.Caught)
		res.Elapsed = time.Since(start)
		out = append(out, res)
		if err := ctx.Err(); err != nil {
			return out, err
		}
	}
	return out, nil
}

// Overlay writes the mutated file under dir and the overlay file naming it, and returns the
// overlay file's path. The original text must be in the file exactly once.
func Overlay(root, dir string, m rules.Mutation) (string, error) {
	src := filepath.Join(root, filepath.FromSlash(m.File))
	body, err := os.ReadFile(src)
	if err != nil {
		return "", fmt.Errorf("mutation %d: %w", m.N, err)
	}
	mutated, err := m.Apply(string(body))
	if err != nil {
		return "", err
	}
	sub := filepath.Join(dir, fmt.Sprint(m.N))
	if err := os.MkdirAll(sub, 0o755); err != nil {
		return "", err
	}
	repl := filepath.Join(sub, filepath.Base(src))
	if err := os.WriteFile(repl, []byte(mutated), 0o644); err != nil {
		return "", err
	}
	abs, err := filepath.Abs(src)
	if err != nil {
		return "", err
	}
	js, err := json.Marshal(struct{ Replace map[string]string }{map[string]string{abs: repl}})
	if err != nil {
		return "", err
	}
	overlay := filepath.Join(sub, "overlay.json")
	return overlay, os.WriteFile(overlay, js, 0o644)
}

func one(ctx context.Context, opt Options, dir string, rows map[string]rules.Rule, m rules.Mutation, caught map[string][]string) error {
	overlay, err := Overlay(opt.Root, dir, m)
	if err != nil {
		return err
	}
	pkgs, tests, err := named(rows, m.Rules)
	if err != nil {
		return fmt.Errorf("mutation %d: %w", m.N, err)
	}
	// The mutated file's own package first when the row names tests there: its unit tests are
	// the quickest to build and the likeliest to catch, and the first catch ends the run.
	own := path.Dir(m.File)
	sort.SliceStable(pkgs, func(i, j int) bool { return pkgs[i] == own && pkgs[j] != own })
	for _, pkg := range pkgs {
		if allCaught(m, caught) {
			break
		}
		start := time.Now()
		o := goTest(ctx, opt, overlay, pkg, tests[pkg])
		var failed []string
		for _, fn := range tests[pkg] {
			if o.failed[fn] {
				failed = append(failed, pkg+"."+fn)
			}
		}
		logf(opt, "mutation %d %s: %d tests, %d failed, %s\n", m.N, pkg, len(tests[pkg]), len(failed), time.Since(start).Round(time.Second))
		if o.exitErr != nil && len(failed) == 0 {
			// Not caught, and not a clean pass either: the mutant does not build, or the
			// package's tests died outside any named test. Neither is a verdict.
			var ee *exec.ExitError
			if !errors.As(o.exitErr, &ee) {
				return fmt.Errorf("mutation %d: %s: %w", m.N, pkg, o.exitErr)
			}
			return fmt.Errorf("mutation %d: %s failed with no named test failing (does the mutant build?):\n%s", m.N, pkg, tail(o.output, 15))
		}
		for _, id := range m.Rules {
			for _, t := range rows[id].Tests {
				for _, f := range failed {
					if t == f {
						caught[id] = append(caught[id], f)
					}
				}
			}
		}
	}
	return nil
}

func allCaught(m rules.Mutation, caught map[string][]string) bool {
	for _, id := range m.Rules {
		if len(caught[id]) == 0 {
			return false
		}
	}
	return true
}

// WriteTable writes a line per mutation and rule: the rule, the mutation, and the named tests
// that caught it, or SURVIVED, or the error; then the counts. It returns how many rules
// survived a mutation plus how many mutations could not be judged: zero is a pass.
func WriteTable(w io.Writer, results []Result) int {
	bad := 0
	fmt.Fprintf(w, "%-4s %-18s %-8s %-50s %s\n", "mut", "rule", "time", "mutation", "caught by")
	for _, r := range results {
		m := r.Mutation
		why := m.Why
		if len(why) > 50 {
			why = why[:47] + "..."
		}
		if r.Err != nil {
			bad++
			fmt.Fprintf(w, "%-4d %-18s %-8s %-50s ERROR: %v\n", m.N, strings.Join(m.Rules, ","), r.Elapsed.Round(time.Second), why, r.Err)
			continue
		}
		for _, id := range m.Rules {
			by := r.Caught[id]
			sort.Strings(by)
			verdict := strings.Join(by, ", ")
			if len(by) == 0 {
				bad++
				verdict = "SURVIVED: no named test failed"
			}
			fmt.Fprintf(w, "%-4d %-18s %-8s %-50s %s\n", m.N, id, r.Elapsed.Round(time.Second), why, verdict)
		}
	}
	fmt.Fprintf(w, "\n%d mutations; %d survived or could not be judged\n", len(results), bad)
	return bad
}
