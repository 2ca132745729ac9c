package mutate

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/internal/rules"
)

// A module of its own, so the runner is tested on real `go test` runs that take a second, not on
// the project's: calc.Add is the rule; TestAdd proves it, TestOther cannot see it broken.
var fakeModule = map[string]string{
	"go.mod":              "module example.com/m\n\ngo 1.22\n",
	"calc/calc.go":        "package calc\n\n// Add adds.\nfunc Add(a, b int64) int64 {\n\treturn a + b\n}\n",
	"calc/calc_test.go":   "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 2) != 4 {\n\t\tt.Fatal(Add(2, 2))\n\t}\n}\n\nfunc TestOther(t *testing.T) {}\n",
	"calc/other/other.go": "package other\n",
	"calc/other/other_test.go": "package other\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/calc\"\n)\n\n" +
		"func TestAddInOther(t *testing.T) {\n\tif calc.Add(1, 1) != 2 {\n\t\tt.Error(\"subtest below\")\n\t}\n\tt.Run(\"sub\", func(t *testing.T) {\n\t\tif calc.Add(0, 3) != 3 {\n\t\t\tt.Fatal(\"x\")\n\t\t}\n\t})\n}\n",
}

func writeModule(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range fakeModule {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestRunnerCatchesOnlyWhatANamedTestCatches: through real `go test -overlay` runs on a module
// of its own, a mutation a named test catches is reported with that test; one the row's tests
// cannot see SURVIVES and the table counts it; a stale original and a mutant that does not build
// are errors, not verdicts; and the work tree is never written.
func TestRunnerCatchesOnlyWhatANamedTestCatches(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on a module of its own")
	}
	root := writeModule(t)
	rs, err := rules.Parse("ADD\t-\tadd adds\tsoftware\tcalc/other.TestAddInOther;calc.TestOther;calc.TestAdd\n" +
		"WEAK\t-\tadd adds, weakly proven\tsoftware\tcalc.TestOther\n" +
		"OTHER\t-\tadd adds, proven elsewhere\tsoftware\tcalc/other.TestAddInOther\n")
	if err != nil {
		t.Fatal(err)
	}
	ms, err := rules.ParseMutations(
		"1\tADD\tfast\tcalc/calc.go\treturn a + b\treturn a - b\tsubtracts\n"+
			"2\tWEAK\tfull\tcalc/calc.go\treturn a + b\treturn a * b\tmultiplies\n"+
			"3\tADD\tfull\tcalc/calc.go\treturn a + b + 0\treturn a\tstale\n"+
			"4\tADD\tfull\tcalc/calc.go\treturn a + b\treturn a +\tdoes not build\n"+
			"5\tOTHER\tfull\tcalc/calc.go\treturn a + b\treturn a + b*b\tonly a subtest sees it\n", rs)
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Root: root, Timeout: 2 * time.Minute}
	ctx := context.Background()
	if err := Baseline(ctx, opt, ms, rs); err != nil {
		t.Fatalf("baseline: %v", err)
	}
	res, err := Run(ctx, opt, ms, rs)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 5 {
		t.Fatalf("%d results", len(res))
	}
	// Mutation 1: the row names calc/other first, but the mutated file's own package runs
	// first; its TestAdd fails and the run stops there: calc/other is not needed for the verdict.
	if got := strings.Join(res[0].Caught["ADD"], ","); res[0].Err != nil || got != "calc.TestAdd" {
		t.Errorf("mutation 1: caught by %q, err %v", got, res[0].Err)
	}
	if s := res[1].Survived(); res[1].Err != nil || len(s) != 1 || s[0] != "WEAK" {
		t.Errorf("mutation 2: survived %v, err %v", s, res[1].Err)
	}
	if res[2].Err == nil || res[2].Err.Error() != "mutation 3: original text not found in calc/calc.go" {
		t.Errorf("mutation 3: %v", res[2].Err)
	}
	if res[3].Err == nil || !strings.Contains(res[3].Err.Error(), "does the mutant build?") {
		t.Errorf("mutation 4: %v", res[3].Err)
	}
	// Mutation 5: the own package has no named test, so calc/other runs; only its subtest
	// fails (Add(1, 1) is still 2), and a failing subtest is its test failing.
	if got := strings.Join(res[4].Caught["OTHER"], ","); res[4].Err != nil || got != "calc/other.TestAddInOther" {
		t.Errorf("mutation 5: caught by %q, err %v", got, res[4].Err)
	}
	var table bytes.Buffer
	if bad := WriteTable(&table, res); bad != 3 {
		t.Errorf("%d bad, want 3:\n%s", bad, table.String())
	}
	for _, want := range []string{"calc.TestAdd", "SURVIVED", "ERROR: mutation 3: original text not found"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, table.String())
		}
	}
	body, err := os.ReadFile(filepath.Join(root, "calc", "calc.go"))
	if err != nil || string(body) != fakeModule["calc/calc.go"] {
		t.Fatalf("the work tree was written: %q, %v", body, err)
	}
}

// TestBaselineRefusesATestThatFailsUnmutated: a named test that fails with no mutation would
// seem to catch every one; the baseline refuses to go on.
func TestBaselineRefusesATestThatFailsUnmutated(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on a module of its own")
	}
	root := writeModule(t)
	broken := strings.Replace(fakeModule["calc/calc.go"], "a + b", "a + b + 1", 1)
	if err := os.WriteFile(filepath.Join(root, "calc", "calc.go"), []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	rs, err := rules.Parse("ADD\t-\tadd adds\tsoftware\tcalc.TestAdd;calc.TestMissing\n")
	if err != nil {
		t.Fatal(err)
	}
	ms, err := rules.ParseMutations("1\tADD\tfast\tcalc/calc.go\treturn a + b + 1\treturn a\tx\n", rs)
	if err != nil {
		t.Fatal(err)
	}
	err = Baseline(context.Background(), Options{Root: root}, ms, rs)
	if err == nil || !strings.Contains(err.Error(), "calc.TestAdd fails with no mutation") || !strings.Contains(err.Error(), "calc.TestMissing did not run") {
		t.Fatalf("baseline: %v", err)
	}
}
