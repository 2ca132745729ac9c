package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMutationsApply: every mutation of mutations.tsv names matrix rows with tests, and its
// original text is in its file exactly once, so a change elsewhere that makes a mutation stale
// fails here, on every `go test ./internal/rules`, with the mutation and the file named — not
// only when the (slow) mutation run is next made.
func TestMutationsApply(t *testing.T) {
	ms, err := Mutations()
	if err != nil {
		t.Fatal(err)
	}
	root := moduleRoot(t)
	for _, m := range ms {
		body, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(m.File)))
		if err != nil {
			t.Errorf("mutation %d: %v", m.N, err)
			continue
		}
		if _, err := m.Apply(string(body)); err != nil {
			t.Error(err)
		}
	}
	t.Logf("%d mutations", len(ms))
}

// TestMutationStaleIsLoud: a mutation whose original text has gone (or is there twice) is an
// error naming the mutation and the file, never a silent skip.
func TestMutationStaleIsLoud(t *testing.T) {
	m := Mutation{N: 7, File: "app/roulette/limits.go", Original: "total >= l.AggregateMin", Replacement: "true"}
	if got, err := m.Apply("return total >= l.AggregateMin"); err != nil || got != "return true" {
		t.Fatalf("apply: %q, %v", got, err)
	}
	_, err := m.Apply("return total > l.AggregateMin")
	if err == nil || err.Error() != "mutation 7: original text not found in app/roulette/limits.go" {
		t.Fatalf("stale: %v", err)
	}
	_, err = m.Apply("total >= l.AggregateMin || total >= l.AggregateMin")
	if err == nil || !strings.Contains(err.Error(), "found 2 times") {
		t.Fatalf("twice: %v", err)
	}
}

// TestParseMutationsRefusesBadRows: what ParseMutations refuses, each with the line named.
func TestParseMutationsRefusesBadRows(t *testing.T) {
	rs, err := Parse("R1\t-\ttext\tsoftware\tserver.TestX\nR2\t-\ttext\tsoftware\tnot yet proven\nR3\t-\ttext\tprocedure\tpeople")
	if err != nil {
		t.Fatal(err)
	}
	ok := "1\tR1\tfast\tserver/a.go\tx := 1\\n\\ty\tx := 2\tbreaks it"
	for _, tc := range []struct{ name, in, want string }{
		{"fields", "1\tR1\tfast\tserver/a.go\tx\ty", "line 1: 6 fields"},
		{"number", strings.Replace(ok, "1", "0", 1), "not a positive integer"},
		{"dup", ok + "\n" + ok, "line 2: mutation 1 already on line 1"},
		{"rule", strings.Replace(ok, "R1", "R9", 1), `rule "R9" is not a row`},
		{"unproven", strings.Replace(ok, "R1", "R2", 1), `rule "R2" names no tests`},
		{"procedure", strings.Replace(ok, "R1", "R1;R3", 1), `rule "R3" names no tests`},
		{"set", strings.Replace(ok, "fast", "slow", 1), `set "slow"`},
		{"file", strings.Replace(ok, "server/a.go", "../a.go", 1), "not a non-test Go file"},
		{"testfile", strings.Replace(ok, "server/a.go", "server/a_test.go", 1), "not a non-test Go file"},
		{"escape", strings.Replace(ok, `\t`, `\q`, 1), `escape \q`},
		{"same", "1\tR1\tfast\tserver/a.go\tx\tx\twhy", "the replacement is the original"},
		{"why", "1\tR1\tfast\tserver/a.go\tx\ty\t ", "say why"},
		{"none", "# nothing\n", "no mutations"},
	} {
		if _, err := ParseMutations(tc.in, rs); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	ms, err := ParseMutations("# c\n"+ok, rs)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 || ms[0].Original != "x := 1\n\ty" || !ms[0].Fast || ms[0].Rules[0] != "R1" {
		t.Fatalf("parsed %+v", ms)
	}
}
