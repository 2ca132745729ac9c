package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A stream as govulncheck writes it: a called stdlib function, a module imported but not
// called, and the summaries.
const stream = `{"config":{"scanner_version":"v1.9.0","db":"file:///db","go_version":"go1.26.8"}}
{"osv":{"id":"GO-1","summary":"called"}}
{"osv":{"id":"GO-2","summary":"imported only"}}
{"finding":{"osv":"GO-1","fixed_version":"v1.26.9","trace":[{"module":"stdlib","version":"v1.26.8","package":"net/http","function":"Serve"}]}}
{"finding":{"osv":"GO-1","fixed_version":"v1.26.9","trace":[{"module":"stdlib","version":"v1.26.8","package":"net/http","function":"Serve"},{"function":"main"}]}}
{"finding":{"osv":"GO-2","fixed_version":"v0.2.0","trace":[{"module":"example.com/m","version":"v0.1.0","package":"example.com/m/p"}]}}
`

func TestOnlyCalledVulnerabilitiesAreFindings(t *testing.T) {
	got, err := judge(strings.NewReader(stream))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].id != "GO-1" || got[0].summary != "called" || got[0].where != "stdlib@v1.26.8 net/http.Serve" {
		t.Fatalf("findings %+v, want GO-1 once", got)
	}
}

func TestNoOutputIsNotClean(t *testing.T) {
	if _, err := judge(strings.NewReader("")); err == nil {
		t.Fatal("an empty stream (govulncheck did not run) was judged clean")
	}
}

func TestAnAllowedIDNeedsAReason(t *testing.T) {
	path := filepath.Join(t.TempDir(), "allow")
	if err := os.WriteFile(path, []byte("# comment\nGO-1 fixed in go1.26.9; not on these machines\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	allow, err := readAllow(path)
	if err != nil || allow["GO-1"] != "fixed in go1.26.9; not on these machines" {
		t.Fatalf("%v %v", allow, err)
	}
	if err := os.WriteFile(path, []byte("GO-1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := readAllow(path); err == nil {
		t.Fatal("an id without a reason was allowed")
	}
}
