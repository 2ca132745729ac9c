package rules

import (
	"bytes"
	"encoding/csv"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// moduleRoot is the directory holding go.mod, found upwards from the test's directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = up
	}
}

// repoTests parses every _test.go file of the module with go/parser and returns its Test and
// Fuzz functions as "package/path.Name" (the path relative to the module root).
func repoTests(t *testing.T, root string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil {
				continue
			}
			if n := fn.Name.Name; strings.HasPrefix(n, "Test") || strings.HasPrefix(n, "Fuzz") {
				out[filepath.ToSlash(rel)+"."+n] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMatrixNamesOnlyRealTests: every test the matrix names is a Test or Fuzz function in the
// package it names, found by parsing the repository's test files — a renamed or deleted test
// fails here, so the matrix never claims a proof that is not there.
func TestMatrixNamesOnlyRealTests(t *testing.T) {
	rs, err := Matrix()
	if err != nil {
		t.Fatal(err)
	}
	have := repoTests(t, moduleRoot(t))
	if !have["internal/rules.TestMatrixNamesOnlyRealTests"] {
		t.Fatalf("the parse found %d tests, not this one: the walk is wrong", len(have))
	}
	for _, r := range rs {
		for _, tn := range r.Tests {
			if !have[tn] {
				t.Errorf("%s names %s, which no _test.go file in the module declares", r.ID, tn)
			}
		}
	}
	s := Count(rs)
	t.Logf("%d rules: %d proven, %d not yet proven, %d procedure", len(rs), s.Proven, s.NotYet, s.Procedure)
}

// specPath is SPEC.md: ../shared beside the repository (as on a developer's machine and in CI),
// or where ATS_SPEC says.
func specPath(root string) string {
	if p := os.Getenv("ATS_SPEC"); p != "" {
		return p
	}
	return filepath.Join(filepath.Dir(root), "shared", "SPEC.md")
}

var (
	citeRe    = regexp.MustCompile("`(\\d{3}) (§[^`]+)`")
	ruleRe    = regexp.MustCompile(`§\s*([0-9]+(?:\.[0-9]+[A-Z]?)*(?:\([a-z]+\))*)(?:–([0-9][0-9.]*))?`)
	sectionRe = regexp.MustCompile(`(?m)^## ([0-9]+)\.`)
)

// specCitations lists every seed rule SPEC.md cites with its file number ("001 §4.3.1"); a
// range "§9.1–9.2" gives both ends.
func specCitations(spec string) []string {
	var out []string
	for _, m := range citeRe.FindAllStringSubmatch(spec, -1) {
		file := m[1]
		for _, r := range ruleRe.FindAllStringSubmatch(m[2], -1) {
			out = append(out, file+" §"+r[1])
			if r[2] != "" {
				out = append(out, file+" §"+rangeEnd(r[1], r[2]))
			}
		}
	}
	return out
}

// rangeEnd reads the end of a range as its start does: "§10.9.1–2" ends at 10.9.2 (the end
// replaces the start's last parts), "§9.1–9.2" at 9.2.
func rangeEnd(start, end string) string {
	s, e := strings.Split(start, "."), strings.Split(end, ".")
	if len(e) >= len(s) {
		return end
	}
	return strings.Join(append(s[:len(s)-len(e)], e...), ".")
}

// TestMatrixCoversSPEC: every section of SPEC.md has its rules in the matrix, and every seed
// rule SPEC.md cites is cited by (or is) a row, so a rule added to SPEC.md without a row fails.
func TestMatrixCoversSPEC(t *testing.T) {
	rs, err := Matrix()
	if err != nil {
		t.Fatal(err)
	}
	root := moduleRoot(t)
	body, err := os.ReadFile(specPath(root))
	if err != nil {
		t.Skipf("SPEC.md not beside the repository (%v); set ATS_SPEC to check against it", err)
	}
	spec := string(body)
	cited := map[string]bool{}
	sections := map[string]bool{}
	for _, r := range rs {
		cited[r.ID] = true
		for _, s := range r.Sources {
			cited[s] = true
		}
		if rest, ok := strings.CutPrefix(r.ID, "SPEC §"); ok {
			sections[strings.SplitN(rest, ".", 2)[0]] = true
		}
	}
	secs := sectionRe.FindAllStringSubmatch(spec, -1)
	if len(secs) < 8 {
		t.Fatalf("SPEC.md has %d numbered sections: the heading pattern no longer reads it", len(secs))
	}
	for _, m := range secs {
		if !sections[m[1]] {
			t.Errorf("SPEC.md section %s has no rule in the matrix", m[1])
		}
	}
	cites := specCitations(spec)
	if len(cites) < 30 {
		t.Fatalf("found %d citations in SPEC.md: the citation pattern no longer reads it", len(cites))
	}
	for _, c := range cites {
		if !cited[c] {
			t.Errorf("SPEC.md cites %s; no row of the matrix is it or cites it", c)
		}
	}
}

// TestSpecCitations pins the citation reader on the forms SPEC.md uses.
func TestSpecCitations(t *testing.T) {
	got := strings.Join(specCitations("(`001 §9.1–9.2`) `000 §10.9.1–2` `003 §2.5.4, §4.1` `000 §11.4.2(a)` `001` footnote `§9.8` `002 §3.2A`"), ",")
	want := "001 §9.1,001 §9.2,000 §10.9.1,000 §10.9.2,003 §2.5.4,003 §4.1,000 §11.4.2(a),002 §3.2A"
	if got != want {
		t.Fatalf("citations %q, want %q", got, want)
	}
}

// TestParseRefusesBadRows: what Parse refuses, each with the line named.
func TestParseRefusesBadRows(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"fields", "A\tb\tc\tsoftware", "line 1: 4 fields"},
		{"empty", "A\t-\t\tsoftware\tx.TestY", "line 1: field 3 is empty"},
		{"kind", "A\t-\ttext\tmaybe\tx.TestY", `kind "maybe"`},
		{"test", "A\t-\ttext\tsoftware\tTestY", "not package.TestName"},
		{"notatest", "A\t-\ttext\tsoftware\tserver.helper", "not a Test or Fuzz"},
		{"dup", "A\t-\ttext\tprocedure\twhy\n# c\nA\t-\ttext\tprocedure\twhy", "line 3: rule \"A\" already on line 1"},
		{"none", "# only a comment\n", "no rules"},
	} {
		if _, err := Parse(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	rs, err := Parse("A\t001 §1; 002 §2\ttext\tsoftware\tnot yet proven\nB\t-\tt\tprocedure\tpeople do it\nC\t-\tt\tsoftware\tserver.TestX;app.FuzzY")
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 3 || rs[0].Status() != NotYetProven || len(rs[0].Sources) != 2 || rs[1].Status() != "procedure" ||
		rs[1].Reason != "people do it" || rs[2].Status() != "proven" || len(rs[2].Tests) != 2 {
		t.Fatalf("parsed %+v", rs)
	}
}

// TestFormats: the three outputs carry every rule, its status and its proof.
func TestFormats(t *testing.T) {
	rs, err := Parse("R|1\t-\ta | b\tsoftware\tserver.TestX\nR2\t001 §1\tc\tprocedure\tthe dealer's hands\nR3\t-\td\tsoftware\tnot yet proven")
	if err != nil {
		t.Fatal(err)
	}
	var txt, md, cs bytes.Buffer
	if err := WriteText(&txt, rs); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, rs); err != nil {
		t.Fatal(err)
	}
	if err := WriteCSV(&cs, rs); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"R|1  [proven]", "test: server.TestX", "R2  [procedure]", "why procedure: the dealer's hands", "R3  [not yet proven]", "3 rules: 1 proven, 1 not yet proven, 1 procedure"} {
		if !strings.Contains(txt.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, txt.String())
		}
	}
	for _, want := range []string{`| R\|1 | - | a \| b | proven | ` + "`server.TestX`", "| R2 | 001 §1 | c | procedure | the dealer's hands |", "| R3 | - | d | not yet proven | not yet proven |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	recs, err := csv.NewReader(&cs).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 || recs[1][0] != "R|1" || recs[1][5] != "server.TestX" || recs[2][6] != "the dealer's hands" || recs[3][4] != NotYetProven {
		t.Fatalf("csv %q", recs)
	}
}
